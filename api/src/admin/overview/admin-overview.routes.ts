import { Router } from 'express';
import { overviewQuerySchema } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { parseOrThrow } from '../../http/validate';
import { overview } from './admin-overview.repo';

/** The admin's first screen (decision 042), polled by the dashboard while it is shown. */
export function adminOverviewRouter(deps: ApiDeps) {
  const router = Router();

  router.get('/overview', async (req, res) => {
    const { days } = parseOrThrow(overviewQuerySchema, req.query);
    res.json(await overview(deps.db, { now: new Date(), days }));
  });

  return router;
}
