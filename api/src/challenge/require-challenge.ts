import type { Request, RequestHandler } from 'express';
import { challengeMessages, challengePage } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { challengeRequired } from '../errors';
import { challengeGate } from './challenge-gate';
import { isFormPost, isRecord } from '../http/public-intake';

/** The form field the widget's solution arrives in (altcha's default name). */
export const CHALLENGE_FIELD = 'altcha';

/** Where a challenged form is, for the page a form posted without JavaScript gets. */
export interface ChallengedForm {
  /** The form on its page (a path of this site, its query, the form's anchor). */
  href(req: Request): string;
  /** One more paragraph of that page, e.g. another way to ask. */
  note?: string;
}

/**
 * A public form's submission must carry a solved, unused challenge when the challenge
 * mode says so (always, or in `auto` when its client, its network or all clients are over
 * their threshold): without one it is answered 428, with an invalid, expired or used one
 * 403, both `{ message, challengeRequired: true }` so the form solves one and sends again.
 *
 * A plain form post (no JavaScript) is held to the same rule (decision 053): a browser
 * that asks for HTML gets an Italian page with the same status that explains the check
 * and links back to `form`, where the widget solves it; a post that carries the widget's
 * field is verified like a JSON one. Every submission counts towards the thresholds.
 * Goes after the public intake's checks and before the route's handler, which never sees
 * the solution.
 */
export function requireChallengeWhenBusy(deps: ApiDeps, form: ChallengedForm): RequestHandler {
  const gate = challengeGate(deps);
  const pageFor = (req: Request, reason: string) =>
    isFormPost(req)
      ? {
          title: challengePage.title,
          paragraphs: [reason, challengePage.nothingSent, challengePage.how, ...(form.note ? [form.note] : [])],
          link: { href: form.href(req), label: challengePage.back },
        }
      : undefined;

  return async (req, _res, next) => {
    if (gate.demand.mode === 'off' || !isRecord(req.body)) {
      next();
      return;
    }
    // The solution is the gate's business: the route never sees (or stores) it.
    const solution = req.body[CHALLENGE_FIELD];
    delete req.body[CHALLENGE_FIELD];
    if (!(await gate.demand.countSubmission(req.ip))) {
      next();
      return;
    }
    if (solution === undefined || solution === null || solution === '') {
      throw challengeRequired(428, challengeMessages.required, pageFor(req, challengePage.why));
    }
    const verdict = await gate.proofOfWork.verify(solution);
    if (!verdict.valid || !(await gate.used.markUsed(verdict.challengeId, verdict.expiresAt))) {
      throw challengeRequired(403, challengeMessages.invalid, pageFor(req, challengePage.invalid));
    }
    next();
  };
}
