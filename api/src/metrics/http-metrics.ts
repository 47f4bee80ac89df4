import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import type { ApiMetrics } from './api-metrics';

/** Requests no route answered: a static file, a refusal before routing, a 404. */
const NO_ROUTE = '(no route)';
/** The site's catch-all page route (a regular expression, one label for every page). */
const SITE_PAGES = '(site page)';

/**
 * The route template a request matched (`/api/admin/leads/:id`), never its path: ids,
 * tokens and addresses stay out of the labels, and their number stays that of the routes.
 * The mount prefix is read off the path (mounts are literal here), since a router
 * restores `req.baseUrl` when an error leaves it.
 */
export function routeTemplate(req: Request): string {
  const template = (req.route as { path?: unknown } | undefined)?.path;
  if (template === undefined) return NO_ROUTE;
  if (typeof template !== 'string') return SITE_PAGES;
  const path = (req.originalUrl.split('?')[0] ?? '/').split('/');
  const own = template.split('/').length - 1;
  const prefix = path.slice(0, Math.max(1, path.length - own)).join('/');
  return `${prefix}${template}` || '/';
}

/** Times every request into `http_request_duration_seconds` by method, route and status class. */
export function httpMetrics(metrics: Pick<ApiMetrics, 'requestFinished'>): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      metrics.requestFinished(req.method, routeTemplate(req), res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
