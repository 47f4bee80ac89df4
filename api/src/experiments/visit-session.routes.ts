import { Router } from 'express';
import type { ApiDeps } from '../dependencies';
import { createClientRateLimit, networkAllowancesOf } from '../http/rate-limit';
import { visitSessionsOf } from './per-app';

/**
 * GET /api/analytics/session: a new signed visit session for a browser tab, with the hero
 * variants its pages show (decision 051). Nothing is stored and no cookie is set: the tab
 * keeps the token in sessionStorage, as it kept its session id before. Limited per client
 * (429 beyond it): a tab without a session is still recorded, in no experiment.
 */
export function visitSessionRouter(deps: ApiDeps) {
  const router = Router();
  const sessions = visitSessionsOf(deps);
  const perClient = createClientRateLimit({
    redis: deps.redis,
    keyPrefix: `${deps.config.REDIS_KEY_PREFIX}:rl:analytics-session`,
    points: deps.config.ANALYTICS_SESSIONS_PER_IP_PER_HOUR,
    durationSeconds: 3600,
    networks: networkAllowancesOf(deps.config),
  });

  router.get('/api/analytics/session', async (req, res) => {
    await perClient.consume(req.ip);
    const answer = await sessions.issue({ ip: req.ip, userAgent: req.get('user-agent') });
    // Each answer is one tab's own: no cache may keep it or hand it to another.
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });
  return router;
}
