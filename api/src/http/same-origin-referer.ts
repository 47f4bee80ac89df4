import type { Request } from 'express';

/** The Referer as a URL when it is a page of this site, else undefined. */
export function sameOriginReferer(req: Request): URL | undefined {
  const referer = req.get('referer');
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return url.host === req.get('host') ? url : undefined;
  } catch {
    return undefined;
  }
}
