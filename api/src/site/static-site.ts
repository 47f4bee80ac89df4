import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The prerendered web build, read once at start-up: every page with the hashes of its
 * inline scripts (for the CSP) and every static file with its precompressed variants.
 * Only files found here are ever served, so no request path reaches the file system.
 */
export interface SitePage {
  html: Buffer;
  brotli: Buffer | null;
  gzip: Buffer | null;
  etag: string;
  scriptHashes: string[];
}

export interface SiteFile {
  file: string;
  brotli: string | null;
  gzip: string | null;
  contentType: string;
  immutable: boolean;
}

export interface StaticSite {
  pages: Map<string, SitePage>;
  files: Map<string, SiteFile>;
  notFound: SitePage;
  spaFallback: SitePage;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // Route data of prerendered pages, fetched on client-side navigation.
  '.data': 'text/x-script; charset=utf-8',
  '.woff2': 'font/woff2',
};

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(`sha256-${createHash('sha256').update(match[1] ?? '', 'utf8').digest('base64')}`);
  }
  return [...hashes];
}

function readVariant(file: string): Buffer | null {
  return existsSync(file) ? readFileSync(file) : null;
}

function loadPage(file: string): SitePage {
  const html = readFileSync(file);
  return {
    html,
    brotli: readVariant(`${file}.br`),
    gzip: readVariant(`${file}.gz`),
    etag: `"${createHash('sha1').update(html).digest('base64url')}"`,
    scriptHashes: inlineScriptHashes(html.toString('utf8')),
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** Loads the build in `buildDir`, or returns null when there is none (API-only runs). */
export function loadStaticSite(buildDir: string): StaticSite | null {
  const root = path.resolve(buildDir);
  const notFoundFile = path.join(root, '404', 'index.html');
  if (!existsSync(root) || !statSync(root).isDirectory() || !existsSync(notFoundFile)) return null;

  const pages = new Map<string, SitePage>();
  const files = new Map<string, SiteFile>();
  for (const file of walk(root)) {
    const relative = `/${path.relative(root, file).split(path.sep).join('/')}`;
    if (relative.endsWith('.br') || relative.endsWith('.gz')) continue;
    if (relative.endsWith('/index.html')) {
      const page = relative.slice(0, -'/index.html'.length) || '/';
      pages.set(page, loadPage(file));
      continue;
    }
    if (relative.endsWith('.html')) continue;
    const contentType = CONTENT_TYPES[path.extname(file)];
    if (!contentType) continue;
    files.set(relative, {
      file,
      brotli: existsSync(`${file}.br`) ? `${file}.br` : null,
      gzip: existsSync(`${file}.gz`) ? `${file}.gz` : null,
      contentType,
      immutable: relative.startsWith('/assets/'),
    });
  }
  const notFound = pages.get('/404')!;
  pages.delete('/404');
  const spaFile = path.join(root, '__spa-fallback.html');
  return { pages, files, notFound, spaFallback: existsSync(spaFile) ? loadPage(spaFile) : notFound };
}
