import type { ChainableCommander, Redis } from 'ioredis';

/**
 * Who is online, as the API saw it: one member per client key (an IPv4 address or an
 * IPv6 /64, see clientKey) with the time of its latest analytics request, in a sorted set
 * for the whole site and one per page of the site. Session ids are chosen by the browser
 * and cost nothing to invent; a client key is where requests really come from, so one
 * request, or one client, adds at most one visitor. Visitors behind a shared address
 * count once: the figure can be low, never invented. (docs/decisions/026)
 */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

const siteKey = (prefix: string) => `${prefix}:analytics:online`;
const pageKey = (prefix: string, path: string) => `${prefix}:analytics:online:${path}`;

/** Adds the presence writes to the transaction that queues the client's events. */
export function recordPresence(transaction: ChainableCommander, prefix: string, clientKey: string, pages: string[], now: number) {
  for (const key of [siteKey(prefix), ...pages.map((path) => pageKey(prefix, path))]) {
    transaction
      .zadd(key, now, clientKey)
      .zremrangebyscore(key, '-inf', now - ONLINE_WINDOW_MS)
      .pexpire(key, ONLINE_WINDOW_MS);
  }
}

/** Clients seen on the site, and on `path`, within the window. */
export async function onlineCounts(redis: Redis, prefix: string, path: string, now = Date.now()) {
  const since = now - ONLINE_WINDOW_MS;
  const [site, page] = await Promise.all([
    redis.zcount(siteKey(prefix), since, '+inf'),
    redis.zcount(pageKey(prefix, path), since, '+inf'),
  ]);
  return { visitorsOnline: site, readersOfPage: page };
}

/**
 * When the client (a client key) last sent an analytics request, if within the window:
 * a visit seen before a form, the signal that lets a lead's SMS use the share of the SMS
 * budgets kept for trusted leads (docs/decisions/052). Null when not seen.
 */
export async function lastSeenOnline(redis: Redis, prefix: string, clientKey: string, now = Date.now()) {
  const score = await redis.zscore(siteKey(prefix), clientKey);
  const seenAt = score === null ? Number.NaN : Number(score);
  return seenAt >= now - ONLINE_WINDOW_MS ? seenAt : null;
}
