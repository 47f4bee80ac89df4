import { createHash, randomBytes } from 'node:crypto';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { PRIVACY_CONSENT_VERSION, thankYouPathFor } from '@guida/shared/lead-rules';
import { marketingConsentText, privacyConsentText } from '@guida/shared/messages';
import type { EbookRequest } from '@guida/shared/schemas/lead';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { LeadInserter } from './lead-inserter';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const PRIVACY_CONSENT_HASH = sha256(privacyConsentText);
const MARKETING_CONSENT_HASH = sha256(marketingConsentText);

/** 16 random bytes: 128 bits, 22 URL-safe characters in the SMS. */
export const newDownloadToken = () => randomBytes(16).toString('base64url');

export interface LeadsDeps {
  insertLead: LeadInserter;
  queues: JobQueues;
  logger: Logger;
  downloadTokenTtlDays: number;
}

export interface CreatedLead {
  id: number;
  redirectTo: string;
  /** false when the phone already asked within 24 h: same answer, no second SMS. */
  created: boolean;
}

export async function createLead(
  deps: LeadsDeps,
  request: EbookRequest,
  origin: { ipAddress: string | null; userAgent: string | null },
): Promise<CreatedLead> {
  const result = await deps.insertLead({
    request,
    ...origin,
    consentVersion: PRIVACY_CONSENT_VERSION,
    privacyConsentHash: PRIVACY_CONSENT_HASH,
    marketingConsentHash: MARKETING_CONSENT_HASH,
    downloadToken: newDownloadToken(),
    downloadTokenTtlDays: deps.downloadTokenTtlDays,
  });
  const redirectTo = thankYouPathFor(request.telefono, request.landingPath);
  if (!result.created) {
    deps.logger.info({ leadId: result.leadId }, 'repeated request within 24 h: no new lead');
    return { id: result.leadId, redirectTo, created: false };
  }

  // The lead is committed; a Redis outage only delays delivery (the worker's sweeper
  // enqueues every pending delivery that has no job).
  const leadId = result.leadId;
  const enqueued = await Promise.allSettled([
    deps.queues.enqueue(sendGuideSmsJob, { leadId }),
    deps.queues.enqueue(deliverToCrmJob, {
      leadId,
      deliveryId: result.crmDeliveryId,
      event: 'lead.created',
    }),
  ]);
  for (const outcome of enqueued) {
    if (outcome.status === 'rejected') {
      deps.logger.warn(
        { leadId, err: (outcome.reason as Error).message },
        'job not enqueued; the sweeper will add it',
      );
    }
  }
  deps.logger.info({ leadId }, 'lead stored');
  return { id: leadId, redirectTo, created: true };
}
