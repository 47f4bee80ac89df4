import type { Knex } from 'knex';
import { createVerifiedConversionUploads, listConversionsDue } from '@guida/shared/deliveries/conversion-uploads';
import { sendConversionJob } from '@guida/shared/jobs/conversions';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { META_MAX_EVENT_AGE_MS } from './meta-event';

/** Leads verified longer ago than this get no verified event: an hour to spare for the send and its first retries. */
export const VERIFIED_EVENT_WINDOW_MS = META_MAX_EVENT_AGE_MS - 3600 * 1000;

export interface SweepConversionsDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  /** The Meta Conversions API is on: without it no verified upload is created (nothing would go out). */
  metaOn: boolean;
  /** Uploads younger than this are left to whoever enqueued them a moment ago (the API). */
  graceMs: number;
  /** A claim older than this was left by a worker that stopped mid-post. */
  claimTimeoutMs: number;
  batchSize?: number;
}

/**
 * The conversions queue's sweep (decision 061), run on a job scheduler:
 *
 * - while Meta is on, every lead verified within the window whose data may go to Meta
 *   gets its `verified_lead` upload, once (a unique key), and its job. A sweep rather than an
 *   insert where reachable_at and engaged_at are set: it sees every way a lead becomes
 *   verified (the SMS callback, a download, a backfill) without touching those request
 *   paths, and checks the consent as of now;
 * - every upload still to send whose job was lost (Redis down when the API added it), and
 *   every claim a stopped worker left, is enqueued again under its job id.
 */
export function createSweepConversions({ db, queues, logger, metaOn, graceMs, claimTimeoutMs, batchSize = 1000 }: SweepConversionsDeps) {
  return async function sweepConversions() {
    const verified = metaOn ? await createVerifiedConversionUploads(db, 'meta', { windowMs: VERIFIED_EVENT_WINDOW_MS, limit: batchSize }) : [];
    await queues.enqueueMany(sendConversionJob, verified.map((uploadId) => ({ uploadId })));
    const due = await listConversionsDue(db, 'meta', { graceMs, claimTimeoutMs, limit: batchSize });
    await queues.enqueueAgain(sendConversionJob, due.map(({ uploadId }) => ({ uploadId })));
    const abandoned = due.filter((upload) => upload.abandoned).map((upload) => upload.uploadId);
    if (abandoned.length > 0) logger.warn({ uploadIds: abandoned }, 'conversion claims left by a stopped worker: enqueued to be taken over');
    const result = { verified: verified.length, due: due.length, abandoned: abandoned.length };
    if (verified.length + due.length > 0) logger.info(result, 'swept conversions');
    return result;
  };
}
