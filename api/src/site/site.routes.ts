import { Router, type Request, type Response } from 'express';
import { isAdminPage, type ADMIN_PATHS } from '@guida/shared/page-paths';
import type { ApiDeps } from '../dependencies';
import { servedVariantsOf } from '../experiments';
import { contentSecurityPolicy } from '../http/content-security-policy';
import { experimentPages } from './experiment-pages';
import { loadStaticSite, type SiteFile, type SitePage } from './static-site';

/** Where an operator who types just the admin folder wants to go (it signs them in first). */
const ADMIN_HOME: (typeof ADMIN_PATHS)[number] = '/admin/dashboard';

/**
 * `/page/` → `/page`, only when the result is a path of this site: a Location of
 * `//host` or `/\host` (browsers read a backslash as a slash) would send the visitor to
 * another site, so `//evil.example/` gets the 404 page instead of a redirect.
 */
export function withoutTrailingSlash(path: string): string | null {
  const target = path.replace(/\/+$/, '');
  // eslint-disable-next-line no-control-regex -- browsers drop tabs and newlines from URLs
  return /^\/(?![/\\])[^\\\u0000-\u001F]*$/.test(target) ? target : null;
}

/**
 * Brotli whenever the client accepts it, else gzip. Browsers list gzip first ("gzip,
 * deflate, br, zstd") without preferring it, so choosing by their order served every
 * browser the larger gzip.
 */
function encodingFor(req: Request, available: { brotli: unknown; gzip: unknown }) {
  if (available.brotli && req.acceptsEncodings('br')) return 'br';
  if (available.gzip && req.acceptsEncodings('gzip')) return 'gzip';
  return null;
}

/**
 * Serves the prerendered public site: pages with a CSP allowing exactly their inline
 * scripts, hashed assets cached for a year, precompressed variants when accepted, the
 * 404 page with status 404. Without a web build, unknown paths get the plain 404 page.
 */
export function siteRouter(deps: ApiDeps) {
  const router = Router();
  const site = loadStaticSite(deps.config.WEB_BUILD_DIR);
  if (!site) {
    deps.logger.warn({ dir: deps.config.WEB_BUILD_DIR }, 'no web build found: only the API is served');
    return router;
  }
  const cspOf = new Map<SitePage, string>();
  const csp = (page: SitePage) => {
    let policy = cspOf.get(page);
    if (!policy) {
      policy = contentSecurityPolicy({
        production: deps.config.NODE_ENV === 'production',
        analytics: Boolean(deps.config.GA_MEASUREMENT_ID),
        scriptHashes: page.scriptHashes,
      });
      cspOf.set(page, policy);
    }
    return policy;
  };

  const experiments = experimentPages(site);
  if (experiments.incomplete.length > 0) {
    deps.logger.warn({ experiments: experiments.incomplete }, 'experiments not run: variant pages missing from the web build');
  }
  const servedVariants = servedVariantsOf(deps);
  const visitorOf = (req: Request) => ({ ip: req.ip, userAgent: req.get('user-agent') });

  /** A page under experiment differs from visitor to visitor: no shared cache may keep it. */
  const sendPage = (req: Request, res: Response, page: SitePage, status: number, perVisitor = false) => {
    res.status(status);
    res.setHeader('Content-Security-Policy', csp(page));
    // The public pages open in the browser's default group (decision 043): a
    // Cross-Origin-Opener-Policy makes Chromium start a new browsing context group, and
    // on Android a process of its own, for each visitor's first page. The admin keeps it.
    if (!isAdminPage(req.path)) res.removeHeader('Cross-Origin-Opener-Policy');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', perVisitor ? 'private, no-cache' : 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', page.etag);
    if (status === 200 && req.headers['if-none-match'] === page.etag) {
      res.status(304).end();
      return;
    }
    const encoding = encodingFor(req, page);
    const body = encoding === 'br' ? page.brotli! : encoding === 'gzip' ? page.gzip! : page.html;
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const sendFile = (req: Request, res: Response, file: SiteFile, perVisitor = false) => {
    const encoding = encodingFor(req, file);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader(
      'Cache-Control',
      perVisitor ? 'private, no-cache' : file.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    );
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.sendFile(encoding === 'br' ? file.brotli! : encoding === 'gzip' ? file.gzip! : file.file, {
      headers: { 'Content-Type': file.contentType },
      lastModified: !perVisitor,
      cacheControl: false,
    });
  };

  router.get(/.*/, async (req, res) => {
    // The page of an experiment, or its route data (client-side navigation): the variant
    // of this visitor, or the winner once the experiment is stopped (decision 041).
    const experiment = experiments.byPagePath.get(req.path) ?? experiments.byDataPath.get(req.path);
    if (experiment) {
      const variant = experiment.variants.get(await servedVariants.variantFor(experiment.experiment, visitorOf(req)))!;
      if (experiments.byPagePath.has(req.path)) return sendPage(req, res, variant.page, 200, true);
        if (variant.data) return sendFile(req, res, variant.data, true);
    }
    const file = site.files.get(req.path);
    if (file) return sendFile(req, res, file);
    if (req.path.length > 1 && req.path.endsWith('/')) {
      const target = withoutTrailingSlash(req.path);
      if (target) {
        res.redirect(301, `${target}${req.originalUrl.slice(req.path.length)}`);
        return;
      }
      return sendPage(req, res, site.notFound, 404);
    }
    const page = site.pages.get(req.path);
    if (page) return sendPage(req, res, page, 200);
    // The admin area's pages are client-side routes: they get the app shell, not
    // prerendered HTML. Any other path under /admin is unknown, and answered as such.
    if (isAdminPage(req.path)) {
      res.setHeader('X-Robots-Tag', 'noindex, nofollow');
      return sendPage(req, res, site.spaFallback, 200);
    }
    if (req.path === '/admin') {
      res.redirect(302, ADMIN_HOME);
      return;
    }
    return sendPage(req, res, site.notFound, 404);
  });
  return router;
}
