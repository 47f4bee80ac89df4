import { Router } from 'express';
import type { ApiDeps } from '../dependencies';
import { challengeGate } from './challenge-gate';

/**
 * - `GET /api/challenge`: a new signed altcha challenge, what the widget solves.
 * - `GET /api/challenge/status`: `{ required }`, whether this client's next form
 *   submission needs a solution now; the form asks once when it is first focused, so the
 *   widget loads (and solves while the visitor types) only then.
 */
export function challengeRouter(deps: ApiDeps) {
  const gate = challengeGate(deps);
  const router = Router();

  router.get('/api/challenge', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await gate.proofOfWork.issue());
  });

  router.get('/api/challenge/status', async (req, res) => {
    const required = await gate.demand.requiredFor(req.ip);
    res.set('Cache-Control', 'no-store').json({ required });
  });

  return router;
}
