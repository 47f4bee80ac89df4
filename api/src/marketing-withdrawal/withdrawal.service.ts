import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import type { Logger } from '@guida/shared/server/logger';
import type { ApiDeps } from '../dependencies';
import { recordWithdrawal, type WithdrawalOrigin, type WithdrawalOutcome } from './withdrawal.repo';

/**
 * Withdraws the marketing consent of a lead's person (recordWithdrawal), then tells the
 * CRM: the deliveries are in Postgres first, so if Redis is down the sweeper sends them.
 * The one way in for the emailed link and for the admin.
 */
export async function withdrawMarketingConsent(
  deps: Pick<ApiDeps, 'db' | 'queues' | 'config'>,
  logger: Logger,
  leadId: number,
  origin: WithdrawalOrigin,
): Promise<WithdrawalOutcome> {
  const result = await recordWithdrawal(deps.db, deps.config.SUPPRESSION_HASH_SECRET, leadId, origin);
  if (result.outcome !== 'withdrawn') return result;
  logger.info({ leadId, leadIds: result.leadIds, source: origin.source }, 'marketing consent withdrawn');
  await deps.queues
    .enqueueMany(
      deliverToCrmJob,
      result.crmDeliveries.map((delivery) => ({ deliveryId: delivery.id, leadId: delivery.leadId, event: 'lead.consent_withdrawn' as const })),
    )
    .catch((error: unknown) => {
      logger.warn({ leadId, err: (error as Error).message }, 'lead.consent_withdrawn not enqueued; the sweeper will');
    });
  return result;
}
