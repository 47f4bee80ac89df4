import { Router } from 'express';
import { z } from 'zod';
import { analyticsMessages } from '@guida/shared/messages';
import { isSitePage } from '@guida/shared/page-paths';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { withTimeout } from '@guida/shared/server/with-timeout';
import type { ApiDeps } from '../dependencies';
import { notFound } from '../errors';
import { createClientRateLimit, networkAllowancesOf } from '../http/rate-limit';
import { parseOrThrow } from '../http/validate';
import { offerOf } from '../offer';
import { liveFigures, recentDeliveries } from './live-stats.repo';
import { onlineCounts } from './presence';

const querySchema = z.object({ path: z.string({ error: analyticsMessages.path }).default('/') });
const RECENT_DELIVERIES = 8;

/**
 * GET /api/live-stats?path=: the real figures behind the widgets (counts of people only
 * from a threshold up), for the site's pages only (404 otherwise), cached a few seconds
 * per page so a crowd of visitors costs one query every few seconds, and limited per
 * client.
 */
export function liveStatsRouter(deps: ApiDeps) {
  const perClient = createClientRateLimit({
    redis: deps.redis,
    keyPrefix: `${deps.config.REDIS_KEY_PREFIX}:rl:live-stats`,
    points: deps.config.LIVE_STATS_RATE_LIMIT_PER_IP,
    durationSeconds: 60,
    networks: networkAllowancesOf(deps.config),
  });
  const ttlMs = deps.config.LIVE_STATS_CACHE_SECONDS * 1000;
  const offer = offerOf(deps);
  const { placesTotal } = offer.settings;
  // A count of people is answered only when it holds at least SOCIAL_PROOF_MIN_OTHERS
  // besides the visitor asking (who is among them once their own events arrived), else 0
  // and the widget leaves its line out: a visitor alone is no social proof, and a figure of
  // one or two would tell who else is reading (docs/decisions/033).
  const minimumShown = deps.config.SOCIAL_PROOF_MIN_OTHERS + 1;
  const shown = (people: number) => (people >= minimumShown ? people : 0);
  const cache = new Map<string, { at: number; stats: Promise<LiveStats> }>();

  async function compute(path: string): Promise<LiveStats> {
    const [online, figures, deliveries, placesTaken] = await Promise.all([
      // Without Redis nobody can be vouched for: the widgets leave those lines out.
      withTimeout(onlineCounts(deps.redis, deps.config.REDIS_KEY_PREFIX, path), 300, 'Redis').catch((error: unknown) => {
        deps.logger.warn({ err: (error as Error).message }, 'visitors online not counted');
        return { visitorsOnline: 0, readersOfPage: 0 };
      }),
      liveFigures(deps.db),
      recentDeliveries(deps.db, RECENT_DELIVERIES),
      // Places taken once per phone since the offer's start, never given back (decision 047).
      placesTotal === null ? 0 : offer.placesTaken(),
    ]);
    return {
      visitorsOnline: shown(online.visitorsOnline),
      readersOfPage: shown(online.readersOfPage),
      guideRequestsLast2h: figures.requests_last_2h,
      downloadsLast2h: figures.downloads_last_2h,
      recentDeliveries: deliveries.map((row) => ({ at: row.sent_at.toISOString(), country: row.country, delivered: row.delivered })),
      placesRemaining: placesTotal === null ? null : Math.max(0, placesTotal - placesTaken),
      placesTotal,
    };
  }

  const router = Router();
  router.get('/api/live-stats', async (req, res) => {
    await perClient.consume(req.ip);
    const { path } = parseOrThrow(querySchema, req.query);
    // Known pages only: the cache holds one entry per page of the site, no more.
    if (!isSitePage(path)) throw notFound(analyticsMessages.unknownPage);
    const now = Date.now();
    let entry = cache.get(path);
    if (!entry || now - entry.at >= ttlMs) {
      entry = { at: now, stats: compute(path) };
      cache.set(path, entry);
      // A failed computation is not cached.
      entry.stats.catch(() => cache.delete(path));
    }
    res.set('Cache-Control', `public, max-age=${deps.config.LIVE_STATS_CACHE_SECONDS}`).json(await entry.stats);
  });
  return router;
}
