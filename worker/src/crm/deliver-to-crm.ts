import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import type { Logger } from '@guida/shared/server/logger';
import { crmDeletionPayload, crmPayload } from './crm-payload';
import { claimCrmDelivery, loadCrmDelivery, loadLead, recordCrmAttempt } from './crm.repo';
import { CrmDeliveryError, postToCrm, type CrmWebhookSettings } from './crm-webhook-client';

export interface DeliverToCrmDeps {
  db: Knex;
  logger: Logger;
  /** null when CRM_WEBHOOK_URL is unset: deliveries are marked skipped. */
  webhook: CrmWebhookSettings | null;
}

/**
 * Forwards a lead event to the CRM webhook, signed, retried with backoff over hours.
 * lead.deleted carries only the lead id, since the lead is gone by then. Two runs of the
 * job may overlap (a stalled job recovered while its first run still posts), so only the
 * run that claims the delivery (`sending`, in one statement) posts it.
 */
export function createDeliverToCrm(deps: DeliverToCrmDeps) {
  return async function deliverToCrm(job: Job): Promise<string> {
    const { deliveryId, leadId } = deliverToCrmJob.schema.parse(job.data);
    const delivery = await loadCrmDelivery(deps.db, deliveryId);
    if (!delivery) return 'skipped: delivery row no longer exists';
    if (delivery.status !== 'pending' && delivery.status !== 'retrying') {
      return `skipped: already ${delivery.status}`;
    }
    const attempts = job.attemptsMade + 1;
    if (!deps.webhook) {
      await recordCrmAttempt(deps.db, deliveryId, { status: 'skipped', attempts: 0, error: 'CRM_WEBHOOK_URL not set' });
      return 'skipped: no CRM configured';
    }
    let body: string;
    if (delivery.event === 'lead.deleted') {
      body = JSON.stringify(crmDeletionPayload(delivery, delivery.subject_lead_id ?? leadId));
    } else {
      const lead = delivery.lead_id === null ? undefined : await loadLead(deps.db, delivery.lead_id);
      if (!lead) {
        await recordCrmAttempt(deps.db, deliveryId, { status: 'skipped', attempts: 0, error: 'lead erased' });
        return 'skipped: the lead no longer exists';
      }
      body = JSON.stringify(crmPayload(delivery, lead));
    }
    if (!(await claimCrmDelivery(deps.db, deliveryId, attempts))) {
      const current = await loadCrmDelivery(deps.db, deliveryId);
      return current ? `skipped: already ${current.status}` : 'skipped: delivery row no longer exists';
    }
    try {
      const responseStatus = await postToCrm(deps.webhook, { id: deliveryId, event: delivery.event, body });
      await recordCrmAttempt(deps.db, deliveryId, { status: 'delivered', attempts, responseStatus });
      deps.logger.info({ leadId, deliveryId, attempts }, 'lead delivered to the CRM');
      return 'delivered';
    } catch (error) {
      const failure =
        error instanceof CrmDeliveryError ? error : new CrmDeliveryError((error as Error).message, false, null);
      const lastAttempt = failure.permanent || attempts >= (job.opts.attempts ?? 1);
      await recordCrmAttempt(deps.db, deliveryId, {
        status: lastAttempt ? 'failed' : 'retrying',
        attempts,
        responseStatus: failure.responseStatus,
        error: failure.message,
      });
      deps.logger.warn(
        { leadId, deliveryId, attempts, responseStatus: failure.responseStatus },
        lastAttempt ? 'CRM delivery failed for good' : 'CRM delivery failed; will retry',
      );
      throw lastAttempt ? new UnrecoverableError(failure.message) : failure;
    }
  };
}
