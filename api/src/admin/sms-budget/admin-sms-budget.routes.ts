import { Router } from 'express';
import { releaseHeldSms, smsBudgetOverview } from '@guida/shared/deliveries/sms-deliveries';
import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { smsBudgetMessages } from '@guida/shared/messages';
import type { SmsBudgetOverview } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { auditAdminAction } from '../audit-log';

/**
 * The SMS budgets (decision 025): their counts for the admin's alert, and the release of
 * held SMS, which sends them even though a budget is still reached.
 */
export function adminSmsBudgetRouter(deps: ApiDeps) {
  const router = Router();
  const budget = { limits: smsBudgetLimits(deps.config), now: () => new Date() };

  router.get('/sms-budget', async (_req, res) => {
    const overview = await smsBudgetOverview(deps.db, budget);
    const answer: SmsBudgetOverview = {
      ...overview,
      held: { ...overview.held, oldestAt: overview.held.oldestAt?.toISOString() ?? null },
    };
    res.json(answer);
  });

  router.post('/sms-budget/release', async (req, res) => {
    const leadIds = await releaseHeldSms(deps.db, 'admin-release');
    // If Redis is down the rows stay pending and the sweeper enqueues them later.
    await deps.queues
      .enqueueAgain(sendGuideSmsJob, leadIds.map((leadId) => ({ leadId })))
      .catch((error: unknown) => {
        deps.logger.warn({ count: leadIds.length, err: (error as Error).message }, 'released SMS not queued; the sweeper will');
      });
    await auditAdminAction(deps.db, req, { action: 'release_held_sms', details: { released: leadIds.length } });
    res.status(202).json({ released: leadIds.length, message: smsBudgetMessages.released(leadIds.length) });
  });

  return router;
}
