import { Router } from 'express';
import { withTimeout } from '@guida/shared/server/with-timeout';
import type { ApiDeps } from '../dependencies';


/** /healthz: the process answers. /readyz: it can reach Postgres and Redis. */
export function healthRouter(deps: ApiDeps) {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [database, redis] = await Promise.allSettled([
      withTimeout(deps.db.raw('select 1'), 2000),
      withTimeout(deps.redis.ping(), 2000),
    ]);
    const checks = {
      database: database.status === 'fulfilled' ? 'ok' : 'unavailable',
      redis: redis.status === 'fulfilled' ? 'ok' : 'unavailable',
    };
    // Leads are still accepted without Redis (the sweeper catches up), not without Postgres.
    res.status(checks.database === 'ok' ? 200 : 503).json({ status: checks.database, checks });
  });
  return router;
}
