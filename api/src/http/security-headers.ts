import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { contentSecurityPolicy } from './content-security-policy';

/**
 * Helmet's headers, HSTS only in production (served over https), and our CSP on every
 * response; prerendered pages replace it with one that also allows their inline scripts.
 */
export function securityHeaders(options: { production: boolean; analytics: boolean }): RequestHandler[] {
  const csp = contentSecurityPolicy(options);
  return [
    helmet({
      contentSecurityPolicy: false,
      strictTransportSecurity: options.production
        ? { maxAge: 63_072_000, includeSubDomains: true, preload: true }
        : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
    }),
    (_req, res, next) => {
      res.setHeader('Content-Security-Policy', csp);
      next();
    },
  ];
}
