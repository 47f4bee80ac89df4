import { HTML_PAGE_STYLE_HASH } from './html-page';

/** Hosts Google Analytics 4 needs, allowed only when GA_MEASUREMENT_ID is configured. */
const GA_SCRIPT = ['https://www.googletagmanager.com'];
const GA_CONNECT = ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'];

export interface CspOptions {
  production: boolean;
  analytics: boolean;
  /** 'sha256-...' sources of the page's inline scripts (prerendered pages only). */
  scriptHashes?: string[];
}

/**
 * The Content-Security-Policy of every response: scripts from our origin or by hash (no
 * 'unsafe-inline'), no framing, forms only to us. One function, so pages and API agree.
 */
export function contentSecurityPolicy({ production, analytics, scriptHashes = [] }: CspOptions): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...scriptHashes.map((hash) => `'${hash}'`), ...(analytics ? GA_SCRIPT : [])]],
    ['style-src', ["'self'", HTML_PAGE_STYLE_HASH]],
    ['img-src', ["'self'", 'data:', ...(analytics ? GA_CONNECT : [])]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(analytics ? GA_CONNECT : [])]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
    ...(production ? ([['upgrade-insecure-requests', []]] as [string, string[]][]) : []),
  ];
  return directives.map(([name, values]) => [name, ...values].join(' ')).join('; ');
}
