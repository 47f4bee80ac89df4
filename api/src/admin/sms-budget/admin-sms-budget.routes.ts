import { Router } from 'express';
import { budgetAddressDigest, smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import {
  countHeldSms,
  discardHeldSms,
  releaseHeldSms,
  smsBudgetOverview,
  type HeldSmsCriteria,
} from '@guida/shared/deliveries/sms-deliveries';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { smsBudgetMessages } from '@guida/shared/messages';
import {
  heldSmsCriteriaSchema,
  releaseHeldSmsSchema,
  type HeldSmsCount,
  type HeldSmsCriteriaQuery,
  type SmsBudgetOverview,
} from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { clientKey, truncateIp } from '../../http/client-ip';
import { parseOrThrow } from '../../http/validate';
import { auditAdminAction } from '../audit-log';

/**
 * The SMS budgets (decisions 025, 052): their counts for the admin's alert; the release of
 * held SMS (every one, or only the trusted ones), which sends them even though a budget is
 * still reached; and the discard of held SMS by number block, client network or address,
 * or time, which ends them as skipped, never sent.
 */
export function adminSmsBudgetRouter(deps: ApiDeps) {
  const router = Router();
  const budget = { limits: smsBudgetLimits(deps.config), now: () => new Date() };
  const addressDigest = budgetAddressDigest(deps.config.SESSION_SECRET);

  /** The criteria as the deliveries count them: the network as leads store it, the address as its digest. */
  const heldCriteria = (query: HeldSmsCriteriaQuery): HeldSmsCriteria => ({
    block: query.block,
    network: query.network === undefined ? undefined : (truncateIp(query.network.split('/')[0]) ?? undefined),
    address: query.address === undefined ? undefined : addressDigest(clientKey(query.address)),
    from: query.from,
    to: query.to,
    untrustedOnly: query.untrustedOnly,
  });
  /** What the discard's reason and the audit log keep: no address, only its digest (the audit log holds no personal data). */
  const described = (criteria: HeldSmsCriteria) =>
    Object.fromEntries(Object.entries(criteria).filter(([, value]) => value !== undefined && value !== false));

  router.get('/sms-budget', async (_req, res) => {
    const overview = await smsBudgetOverview(deps.db, budget);
    const answer: SmsBudgetOverview = {
      ...overview,
      held: { ...overview.held, oldestAt: overview.held.oldestAt?.toISOString() ?? null },
    };
    res.json(answer);
  });

  router.post('/sms-budget/release', async (req, res) => {
    const { trustedOnly } = parseOrThrow(releaseHeldSmsSchema, req.body ?? {});
    const leadIds = await releaseHeldSms(deps.db, 'admin-release', { trustedOnly });
    // If Redis is down the rows stay pending and the sweeper enqueues them later.
    await deps.queues
      .enqueueAgain(sendGuideSmsJob, leadIds.map((leadId) => ({ leadId })))
      .catch((error: unknown) => {
        deps.logger.warn({ count: leadIds.length, err: (error as Error).message }, 'released SMS not queued; the sweeper will');
      });
    await auditAdminAction(deps.db, req, { action: 'release_held_sms', details: { released: leadIds.length, trustedOnly } });
    res.status(202).json({ released: leadIds.length, message: smsBudgetMessages.released(leadIds.length) });
  });

  /** What a discard with these criteria would take, for the admin to confirm. */
  router.get('/sms-budget/held', async (req, res) => {
    const criteria = heldCriteria(parseOrThrow(heldSmsCriteriaSchema, req.query));
    const answer: HeldSmsCount = await countHeldSms(deps.db, criteria);
    res.json(answer);
  });

  router.post('/sms-budget/discard', async (req, res) => {
    const criteria = heldCriteria(parseOrThrow(heldSmsCriteriaSchema, req.body ?? {}));
    const details = described(criteria);
    const discarded = await discardHeldSms(deps.db, criteria, `discarded by an admin: ${JSON.stringify(details)}`);
    await auditAdminAction(deps.db, req, { action: 'discard_held_sms', details: { criteria: details, discarded } });
    res.json({ discarded, message: smsBudgetMessages.discarded(discarded) });
  });

  return router;
}
