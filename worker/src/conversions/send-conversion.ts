import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import {
  CONVERSION_SKIP_REASONS,
  claimConversionUpload,
  conversionUploadIsClaimable,
  conversionUploadStatus,
  loadConversionUpload,
  recordConversionDelivered,
  recordConversionFailure,
  skipConversionUpload,
  type ConversionUpload,
} from '@guida/shared/deliveries/conversion-uploads';
import { CONVERSION_DELIVERED, CONVERSION_SKIPPED, CONVERSION_TRANSITIONS } from '@guida/shared/deliveries/delivery-statuses';
import { sendConversionJob } from '@guida/shared/jobs/conversions';
import { leadsWithAdConversionConsent } from '@guida/shared/server/ad-conversion-consent';
import type { Logger } from '@guida/shared/server/logger';
import type { WorkerMetrics } from '../metrics';
import { loadConversionLead, verifiedAt } from './conversions.repo';
import { ConversionUploadError, postMetaEvents } from './meta-capi-client';
import { META_MAX_EVENT_AGE_MS, metaServerEvent } from './meta-event';
import type { MetaConversionsSettings } from './meta-settings';

export interface SendConversionDeps {
  db: Knex;
  logger: Logger;
  metrics: Pick<WorkerMetrics, 'conversionUpload'>;
  /** null when the Meta Conversions API is off: uploads are marked skipped. */
  meta: MetaConversionsSettings | null;
  /** A claim older than this was left by a worker that stopped mid-post. */
  claimTimeoutMs: number;
  /** Keys the suppression list's hashes (the consent rule reads it). */
  suppressionHashSecret: string;
  now(): Date;
}

/**
 * Posts one conversion to the Meta Conversions API (decision 061). Before anything leaves
 * it checks, as of now: the integration is on, the lead still exists, the consent rule
 * still allows it (a withdrawal or a suppression since the lead was stored stops it), and
 * the event is young enough for Meta; otherwise the upload is skipped with the reason.
 * Two runs of a job may overlap, so only the run that claims the upload posts it; a claim
 * left by a stopped worker is taken over once older than the claim timeout (Meta drops the
 * repeat by event_id). 408, 429, 5xx, network errors and Meta's transient codes are
 * retried with backoff; any other refusal is final.
 */
export function createSendConversion(deps: SendConversionDeps) {
  async function skip(upload: ConversionUpload, reason: string) {
    if (await skipConversionUpload(deps.db, upload.id, reason)) {
      deps.metrics.conversionUpload(upload.platform, upload.event, CONVERSION_SKIPPED);
    }
    return `skipped: ${reason}`;
  }

  return async function sendConversion(job: Job): Promise<string> {
    const { uploadId } = sendConversionJob.schema.parse(job.data);
    const upload = await loadConversionUpload(deps.db, uploadId);
    if (!upload) return 'skipped: upload row no longer exists';
    if (!conversionUploadIsClaimable(upload.status)) return `skipped: already ${upload.status}`;
    if (!deps.meta) return skip(upload, CONVERSION_SKIP_REASONS.notConfigured);
    const lead = upload.lead_id === null ? undefined : await loadConversionLead(deps.db, upload.lead_id);
    if (!lead) return skip(upload, CONVERSION_SKIP_REASONS.erased);
    const [allowed] = await leadsWithAdConversionConsent(deps.db, deps.suppressionHashSecret, [lead]);
    if (!allowed) return skip(upload, CONVERSION_SKIP_REASONS.noConsent);
    const occurredAt = upload.event === 'lead' ? lead.created_at : verifiedAt(lead);
    if (!occurredAt) return skip(upload, CONVERSION_SKIP_REASONS.notVerified);
    if (deps.now().getTime() - occurredAt.getTime() >= META_MAX_EVENT_AGE_MS) return skip(upload, CONVERSION_SKIP_REASONS.tooOld);
    const event = metaServerEvent(upload, lead, occurredAt, deps.meta.publicBaseUrl);

    const attempts = job.attemptsMade + 1;
    if (!(await claimConversionUpload(deps.db, upload, attempts, deps.claimTimeoutMs))) {
      const status = await conversionUploadStatus(deps.db, uploadId);
      return status ? `skipped: already ${status}` : 'skipped: upload row no longer exists';
    }
    const log = { leadId: upload.subject_lead_id, uploadId, event: upload.event, attempts };
    try {
      const answer = await postMetaEvents(deps.meta, [event]);
      await recordConversionDelivered(deps.db, uploadId, { attempts, ...answer });
      deps.metrics.conversionUpload(upload.platform, upload.event, CONVERSION_DELIVERED);
      deps.logger.info(log, 'conversion sent to Meta');
      return CONVERSION_DELIVERED;
    } catch (error) {
      const failure =
        error instanceof ConversionUploadError ? error : new ConversionUploadError((error as Error).message, false, null, null);
      const lastAttempt = failure.permanent || attempts >= (job.opts.attempts ?? 1);
      const transition = lastAttempt ? CONVERSION_TRANSITIONS.recordFailure : CONVERSION_TRANSITIONS.recordRetry;
      await recordConversionFailure(deps.db, uploadId, {
        final: lastAttempt,
        attempts,
        responseStatus: failure.responseStatus,
        responseSummary: failure.responseSummary,
        error: failure.message,
      });
      deps.metrics.conversionUpload(upload.platform, upload.event, transition.to);
      deps.logger.warn(
        { ...log, responseStatus: failure.responseStatus },
        lastAttempt ? 'conversion refused by Meta for good' : 'conversion not taken by Meta; will retry',
      );
      throw lastAttempt ? new UnrecoverableError(failure.message) : failure;
    }
  };
}
