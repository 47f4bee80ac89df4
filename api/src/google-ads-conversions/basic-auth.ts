import { createHash, timingSafeEqual } from 'node:crypto';

/** The user and password of an `Authorization: Basic …` header (RFC 7617), or null. */
function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * A check of HTTP basic credentials against the configured ones, in constant time: digests
 * of equal length are compared (so a guess's length leaks nothing), and both the user and
 * the password always (so the time does not say which one was wrong).
 */
export function basicAuthCheck(expected: { username: string; password: string }) {
  const username = digest(expected.username);
  const password = digest(expected.password);
  return (authorization: string | undefined) => {
    const given = basicCredentials(authorization);
    const userMatches = timingSafeEqual(digest(given?.username ?? ''), username);
    const passwordMatches = timingSafeEqual(digest(given?.password ?? ''), password);
    return given !== null && userMatches && passwordMatches;
  };
}
