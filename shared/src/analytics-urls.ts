import { isSitePage } from './page-paths';

/**
 * What analytics store of a URL. A query string or fragment can carry a personal token
 * (a GDPR confirmation link, a guide link) or campaign click ids: never stored.
 */

/** A page path without its query string or fragment. */
export function storedPath(path: string): string {
  return path.split(/[?#]/, 1)[0]!;
}

/**
 * A referrer reduced to its origin, plus its path when that path is one of the site's
 * pages: a path of ours that is not a page (/gdpr/conferma/<token>, /g/<token>) or
 * another site's path may identify a person. Not a URL: nothing.
 */
export function storedReferrer(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // App referrers (android-app://com.google.android.gm/): the app is enough.
    return url.host ? `${url.protocol}//${url.host}` : null;
  }
  return isSitePage(url.pathname) ? `${url.origin}${url.pathname}` : url.origin;
}
