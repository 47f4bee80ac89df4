import { Router } from 'express';
import { overviewQuerySchema } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { parseOrThrow } from '../../http/validate';
import { offerOf, offerStatus } from '../../offer';
import { overview } from './admin-overview.repo';

/** The admin's first screen (decision 042), polled by the dashboard while it is shown. */
export function adminOverviewRouter(deps: ApiDeps) {
  const router = Router();
  const offer = offerOf(deps);

  router.get('/overview', async (req, res) => {
    const { days } = parseOrThrow(overviewQuerySchema, req.query);
    const [figures, offerNow] = await Promise.all([overview(deps.db, { now: new Date(), days }), offerStatus(offer)]);
    res.json({ ...figures, offer: offerNow });
  });

  return router;
}
