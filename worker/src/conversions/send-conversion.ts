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

/** What the admin reads for a failure that is not Meta's (a bug, the database): the detail goes to the log. */
export const CONVERSION_INTERNAL_ERROR = 'Errore interno del worker: riprova più tardi';

/**
 * Posts one conversion to the Meta Conversions API (decision 061). Two runs of a job may
 * overlap, so only the run that claims the upload goes on; a claim left by a stopped
 * worker is taken over once older than the claim timeout (Meta drops the repeat by
 * event_id). Then, claim held, it checks as of now: the integration is on, the lead still
 * exists, the consent rule still allows it (a withdrawal or a suppression since the lead
 * was stored stops it), and the event is young enough for Meta; otherwise the upload is
 * skipped with the reason. Checking after the claim leaves no gap: a withdrawal committed
 * before the check is seen by it, and one committed after it skips the claimed row
 * itself. 408, 429, 5xx, network errors and Meta's transient codes are retried with
 * backoff; any other refusal is final.
 */
export function createSendConversion(deps: SendConversionDeps) {
  async function skip(upload: ConversionUpload, reason: string) {
    if (await skipConversionUpload(deps.db, upload, reason)) {
      deps.metrics.conversionUpload(upload.platform, upload.event, CONVERSION_SKIPPED);
    }
    return `skipped: ${reason}`;
  }

  return async function sendConversion(job: Job): Promise<string> {
    const { uploadId } = sendConversionJob.schema.parse(job.data);
    const upload = await loadConversionUpload(deps.db, uploadId);
    if (!upload) return 'skipped: upload row no longer exists';
    if (!conversionUploadIsClaimable(upload.status)) return `skipped: already ${upload.status}`;
    const attempts = job.attemptsMade + 1;
    if (!(await claimConversionUpload(deps.db, upload, attempts, deps.claimTimeoutMs))) {
      const status = await conversionUploadStatus(deps.db, uploadId);
      return status ? `skipped: already ${status}` : 'skipped: upload row no longer exists';
    }

    if (!deps.meta) return skip(upload, CONVERSION_SKIP_REASONS.notConfigured);
    const lead = upload.lead_id === null ? undefined : await loadConversionLead(deps.db, upload.lead_id);
    if (!lead) return skip(upload, CONVERSION_SKIP_REASONS.erased);
    const [allowed] = await leadsWithAdConversionConsent(deps.db, deps.suppressionHashSecret, [lead]);
    if (!allowed) return skip(upload, CONVERSION_SKIP_REASONS.noConsent);
    const occurredAt = upload.event === 'lead' ? lead.created_at : verifiedAt(lead);
    if (!occurredAt) return skip(upload, CONVERSION_SKIP_REASONS.notVerified);
    if (deps.now().getTime() - occurredAt.getTime() >= META_MAX_EVENT_AGE_MS) return skip(upload, CONVERSION_SKIP_REASONS.tooOld);
    const event = metaServerEvent(upload, lead, occurredAt, deps.meta.publicBaseUrl);

    const log = { leadId: upload.subject_lead_id, uploadId, event: upload.event, attempts };
    try {
      const answer = await postMetaEvents(deps.meta, [event]);
      if (!(await recordConversionDelivered(deps.db, uploadId, { attempts, ...answer }))) {
        // A withdrawal or an erasure settled the upload while the post was on its way.
        deps.logger.info(log, 'conversion sent to Meta as the upload was settled: kept as settled');
        return `settled while sent: ${(await conversionUploadStatus(deps.db, uploadId)) ?? 'upload row no longer exists'}`;
      }
      deps.metrics.conversionUpload(upload.platform, upload.event, CONVERSION_DELIVERED);
      deps.logger.info(log, 'conversion sent to Meta');
      return CONVERSION_DELIVERED;
    } catch (error) {
      // Meta's answers are Italian already; anything else (a bug, the database) is logged
      // in full and shown to the admin as an internal error.
      const internal = !(error instanceof ConversionUploadError);
      const failure = internal ? new ConversionUploadError(CONVERSION_INTERNAL_ERROR, false, null, null) : error;
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
        { ...log, responseStatus: failure.responseStatus, ...(internal ? { err: (error as Error).message } : {}) },
        `${internal ? 'conversion failed inside the worker' : 'conversion not taken by Meta'}${lastAttempt ? ' for good' : '; will retry'}`,
      );
      throw lastAttempt ? new UnrecoverableError(failure.message) : failure;
    }
  };
}
