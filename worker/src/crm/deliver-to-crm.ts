import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import type { Logger } from '@guida/shared/server/logger';
import { suppressionsOf } from '@guida/shared/server/marketing-suppression';
import {
  claimCrmDelivery,
  crmDeliveryIsClaimable,
  crmDeliveryStatus,
  loadCrmDelivery,
  recordCrmDelivered,
  recordCrmFailure,
  skipCrmDelivery,
} from '@guida/shared/deliveries/crm-deliveries';
import { CRM_DELIVERED } from '@guida/shared/deliveries/delivery-statuses';
import type { WorkerMetrics } from '../metrics';
import { crmDeletionPayload, crmPayload } from './crm-payload';
import { loadLead } from './crm.repo';
import { CrmDeliveryError, postToCrm, type CrmWebhookSettings } from './crm-webhook-client';

export interface DeliverToCrmDeps {
  db: Knex;
  logger: Logger;
  metrics: Pick<WorkerMetrics, 'crmFailed'>;
  /** null when CRM_WEBHOOK_URL is unset: deliveries are marked skipped. */
  webhook: CrmWebhookSettings | null;
  /** A claim older than this was left by a worker that stopped mid-post. */
  claimTimeoutMs: number;
  /** Keys the suppression list's hashes (the payload says whether the lead is on it). */
  suppressionHashSecret: string;
}

/**
 * Forwards a lead event to the CRM webhook, signed, retried with backoff over hours.
 * lead.deleted carries only the lead id, since the lead is gone by then; the others carry
 * the lead as it is when posted, with its marketing suppression looked up then. Two runs of the
 * job may overlap (a stalled job recovered while its first run still posts), so only the
 * run that claims the delivery (`sending`, in one statement) posts it. A claim left by a
 * worker that stopped mid-post is taken over once older than the claim timeout: the CRM
 * may then get the post twice, with the same webhook-id to drop the repeat by.
 */
export function createDeliverToCrm(deps: DeliverToCrmDeps) {
  return async function deliverToCrm(job: Job): Promise<string> {
    const { deliveryId, leadId } = deliverToCrmJob.schema.parse(job.data);
    const delivery = await loadCrmDelivery(deps.db, deliveryId);
    if (!delivery) return 'skipped: delivery row no longer exists';
    if (!crmDeliveryIsClaimable(delivery.status)) return `skipped: already ${delivery.status}`;
    const attempts = job.attemptsMade + 1;
    if (!deps.webhook) {
      await skipCrmDelivery(deps.db, deliveryId, 'CRM_WEBHOOK_URL not set');
      return 'skipped: no CRM configured';
    }
    let body: string;
    if (delivery.event === 'lead.deleted') {
      body = JSON.stringify(crmDeletionPayload(delivery, delivery.subject_lead_id ?? leadId));
    } else {
      const lead = delivery.lead_id === null ? undefined : await loadLead(deps.db, delivery.lead_id);
      if (!lead) {
        await skipCrmDelivery(deps.db, deliveryId, 'lead erased');
        return 'skipped: the lead no longer exists';
      }
      const suppression = (await suppressionsOf(deps.db, deps.suppressionHashSecret, [lead])).get(lead.id) ?? null;
      body = JSON.stringify(crmPayload(delivery, lead, suppression));
    }
    if (!(await claimCrmDelivery(deps.db, delivery, attempts, deps.claimTimeoutMs))) {
      const status = await crmDeliveryStatus(deps.db, deliveryId);
      return status ? `skipped: already ${status}` : 'skipped: delivery row no longer exists';
    }
    try {
      const responseStatus = await postToCrm(deps.webhook, { id: deliveryId, event: delivery.event, body });
      await recordCrmDelivered(deps.db, deliveryId, { attempts, responseStatus });
      deps.logger.info({ leadId, deliveryId, attempts }, 'lead delivered to the CRM');
      return CRM_DELIVERED;
    } catch (error) {
      const failure =
        error instanceof CrmDeliveryError ? error : new CrmDeliveryError((error as Error).message, false, null);
      const lastAttempt = failure.permanent || attempts >= (job.opts.attempts ?? 1);
      deps.metrics.crmFailed(lastAttempt);
      await recordCrmFailure(deps.db, deliveryId, {
        final: lastAttempt,
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
