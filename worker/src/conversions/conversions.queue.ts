import { UnrecoverableError, type Job } from 'bullmq';
import { sendConversionJob, sweepConversionsJob } from '@guida/shared/jobs/conversions';
import type { QueueDeclaration } from '../queue-declaration';
import { metaConversionsSettings } from './meta-settings';
import { createSendConversion } from './send-conversion';
import { createSweepConversions } from './sweep-conversions';

/** Events posted to Meta at once; Meta's limits are far above what a lead form makes. */
const MAX_CONCURRENCY = 10;

/**
 * Conversions to the Meta Conversions API (decision 061): one job per upload, slow retries
 * (60 s base, 10 attempts, about 8.5 hours), and the queue's own sweep on a job scheduler
 * (the verified-lead uploads, and uploads whose job was lost). Off the lead's path: the
 * API stores the upload with the lead and only adds its job.
 */
export const conversionsQueue: QueueDeclaration = {
  queue: 'conversions',
  concurrency: (config) => Math.min(config.WORKER_CONCURRENCY, MAX_CONCURRENCY),
  retryBaseMs: (config) => config.CONVERSIONS_RETRY_BASE_MS,
  schedules: (config) => [{ job: sweepConversionsJob, everyMs: config.SWEEP_INTERVAL_MS }],
  processor: ({ config, db, logger, metrics, queues, claimTimeouts, now }) => {
    const meta = metaConversionsSettings(config);
    if (meta?.testEventCode) {
      logger.warn("META_TEST_EVENT_CODE is set: Meta shows the events in Events Manager's test events, and ads do not count them");
    }
    const run: Record<string, (job: Job) => Promise<unknown>> = {
      [sendConversionJob.name]: createSendConversion({
        db,
        logger,
        metrics,
        meta,
        claimTimeoutMs: claimTimeouts.conversions,
        suppressionHashSecret: config.SUPPRESSION_HASH_SECRET,
        now,
      }),
      [sweepConversionsJob.name]: createSweepConversions({
        db,
        queues,
        logger,
        metaOn: meta !== null,
        graceMs: config.SWEEP_GRACE_MS,
        claimTimeoutMs: claimTimeouts.conversions,
      }),
    };
    return async (job: Job) => {
      const task = run[job.name];
      if (!task) throw new UnrecoverableError(`unknown conversions job ${job.name}`);
      return task(job);
    };
  },
};
