import type { RequestHandler } from 'express';
import { challengeMessages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { challengeRequired } from '../errors';
import { clientKey } from '../http/client-ip';
import { challengeGate } from './challenge-gate';
import { isFormPost, isRecord } from '../http/public-intake';

/** The form field the widget's solution arrives in (altcha's default name). */
export const CHALLENGE_FIELD = 'altcha';


/**
 * A public form's submission must carry a solved, unused challenge when the challenge
 * mode says so (always, or in `auto` when its client or all clients are over their
 * threshold): without one it is answered 428, with an invalid, expired or used one 403,
 * both `{ message, challengeRequired: true }` so the form solves one and sends again.
 *
 * Every submission counts towards the thresholds. A plain form post (no JavaScript)
 * cannot solve a proof-of-work: it is let through to the route's rate limits (decision
 * 028). Goes after the public intake's checks and before the route's handler.
 */
export function requireChallengeWhenBusy(deps: ApiDeps): RequestHandler {
  const gate = challengeGate(deps);
  return async (req, _res, next) => {
    if (gate.demand.mode === 'off' || !isRecord(req.body)) {
      next();
      return;
    }
    // The solution is the gate's business: the route never sees (or stores) it.
    const solution = req.body[CHALLENGE_FIELD];
    delete req.body[CHALLENGE_FIELD];
    const required = await gate.demand.countSubmission(clientKey(req.ip));
    if (!required || isFormPost(req)) {
      next();
      return;
    }
    if (solution === undefined || solution === null || solution === '') {
      throw challengeRequired(428, challengeMessages.required);
    }
    const verdict = await gate.proofOfWork.verify(solution);
    if (!verdict.valid || !(await gate.used.markUsed(verdict.challengeId, verdict.expiresAt))) {
      throw challengeRequired(403, challengeMessages.invalid);
    }
    next();
  };
}
