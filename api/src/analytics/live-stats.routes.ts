import { Router } from 'express';
import { z } from 'zod';
import { validationMessages } from '@guida/shared/messages';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { safeText } from '@guida/shared/text-rules';
import type { ApiDeps } from '../dependencies';
import { parseOrThrow } from '../http/validate';
import { liveFigures, recentDeliveries } from './live-stats.repo';

const querySchema = z.object({ path: safeText(validationMessages.text).startsWith('/').max(200).default('/') });
const MAX_CACHED_PATHS = 200;
const RECENT_DELIVERIES = 8;

/**
 * GET /api/live-stats?path=: the real figures behind the widgets, cached a few seconds per
 * page so a crowd of visitors costs one query every few seconds.
 */
export function liveStatsRouter(deps: ApiDeps) {
  const ttlMs = deps.config.LIVE_STATS_CACHE_SECONDS * 1000;
  const placesTotal = deps.config.FREE_PLACES_TOTAL > 0 ? deps.config.FREE_PLACES_TOTAL : null;
  const cache = new Map<string, { at: number; stats: Promise<LiveStats> }>();

  async function compute(path: string): Promise<LiveStats> {
    const [figures, deliveries] = await Promise.all([
      liveFigures(deps.db, path),
      recentDeliveries(deps.db, RECENT_DELIVERIES),
    ]);
    return {
      visitorsOnline: figures.visitors_online,
      readersOfPage: figures.readers_of_page,
      guideRequestsLast2h: figures.requests_last_2h,
      downloadsLast2h: figures.downloads_last_2h,
      recentDeliveries: deliveries.map((row) => ({ at: row.sent_at.toISOString(), country: row.country })),
      placesRemaining: placesTotal === null ? null : Math.max(0, placesTotal - figures.requests_total),
      placesTotal,
    };
  }

  const router = Router();
  router.get('/api/live-stats', async (req, res) => {
    const { path } = parseOrThrow(querySchema, req.query);
    const now = Date.now();
    let entry = cache.get(path);
    if (!entry || now - entry.at >= ttlMs) {
      if (cache.size >= MAX_CACHED_PATHS) cache.delete(cache.keys().next().value!);
      entry = { at: now, stats: compute(path) };
      cache.set(path, entry);
      // A failed computation is not cached.
      entry.stats.catch(() => cache.delete(path));
    }
    res.set('Cache-Control', `public, max-age=${deps.config.LIVE_STATS_CACHE_SECONDS}`).json(await entry.stats);
  });
  return router;
}
