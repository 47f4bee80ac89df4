import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { contentSecurityPolicy } from './content-security-policy';

/**
 * Powerful browser features no page of this site uses, denied to the site and to anything
 * it might embed, so an injected script or frame cannot ask the visitor for them.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'bluetooth',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'serial',
  'usb',
  'xr-spatial-tracking',
  'browsing-topics',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * Helmet's headers, HSTS only in production (served over https), our CSP and the
 * Permissions-Policy on every response; prerendered pages replace the CSP with one that
 * also allows their inline scripts.
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
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
      next();
    },
  ];
}
