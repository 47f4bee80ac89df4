import { createHash } from 'node:crypto';
import { sendConversionJob } from '@guida/shared/jobs/conversions';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { sendEmailJob } from '@guida/shared/jobs/email';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { CONSENT_TEXTS } from '@guida/shared/consent-texts';
import { thankYouPathFor } from '@guida/shared/lead-rules';
import type { EbookRequest } from '@guida/shared/schemas/lead';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { LeadInserter } from './lead-inserter';
import type { SmsBudgetSignals } from './sms-budget-signals';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const PRIVACY_CONSENT_HASH = sha256(CONSENT_TEXTS.privacy.text);
const MARKETING_CONSENT_HASH = sha256(CONSENT_TEXTS.marketing.text);

export interface LeadsDeps {
  insertLead: LeadInserter;
  queues: JobQueues;
  logger: Logger;
  downloadTokenTtlDays: number;
  /** The key of a phone's place in the offer (decision 047). */
  placeKey: (phone: string) => Buffer;
  /** What the SMS budgets count the lead's SMS by (decision 052). */
  smsBudgetSignals: SmsBudgetSignals;
}

export interface CreatedLead {
  id: number;
  redirectTo: string;
}

/**
 * Stores the submission and schedules its deliveries. A phone that asked within 24 h is
 * stored as its own lead, a repeat of the first (decision 029): it reaches the CRM like
 * any lead but gets no SMS, and its answer has the same shape as any other (its own id),
 * so the answer does not tell whether the phone asked before.
 */
export async function createLead(
  deps: LeadsDeps,
  request: EbookRequest,
  origin: { ip: string | undefined; ipAddress: string | null; userAgent: string | null },
): Promise<CreatedLead> {
  const { ip, ...stored } = origin;
  const { leadId, crmDeliveryId, repeatOf, emailMessageId, conversionUploadId } = await deps.insertLead({
    request,
    ...stored,
    smsBudget: await deps.smsBudgetSignals(ip),
    consentVersion: CONSENT_TEXTS.privacy.version,
    privacyConsentHash: PRIVACY_CONSENT_HASH,
    marketingConsentVersion: CONSENT_TEXTS.marketing.version,
    marketingConsentHash: MARKETING_CONSENT_HASH,
    downloadTokenTtlDays: deps.downloadTokenTtlDays,
    placeKey: deps.placeKey(request.telefono),
  });

  // The lead is committed; a Redis outage only delays delivery (the worker's sweeper
  // enqueues every pending delivery that has no job).
  const enqueued = await Promise.allSettled([
    ...(repeatOf === null ? [deps.queues.enqueue(sendGuideSmsJob, { leadId })] : []),
    ...(emailMessageId === null ? [] : [deps.queues.enqueue(sendEmailJob, { emailMessageId })]),
    deps.queues.enqueue(deliverToCrmJob, { leadId, deliveryId: crmDeliveryId, event: 'lead.created' }),
  ]);
  for (const outcome of enqueued) {
    if (outcome.status === 'rejected') {
      deps.logger.warn(
        { leadId, err: (outcome.reason as Error).message },
        'job not enqueued; the sweeper will add it',
      );
    }
  }
  // Not awaited: the ad platform's event never holds the visitor's answer (decision 061).
  if (conversionUploadId !== null) {
    deps.queues.enqueue(sendConversionJob, { uploadId: conversionUploadId }).catch((error: Error) => {
      deps.logger.warn({ leadId, err: error.message }, 'conversion job not enqueued; the sweeper will add it');
    });
  }
  if (repeatOf === null) deps.logger.info({ leadId }, 'lead stored');
  else deps.logger.info({ leadId, repeatOf, linkByEmail: emailMessageId !== null }, 'lead stored: a repeat within 24 h, no SMS');
  return { id: leadId, redirectTo: thankYouPathFor(request.telefono, request.landingPath) };
}
