import { UnrecoverableError, type Job } from 'bullmq';
import { fetchSmsPriceJob, sweepSmsPricesJob } from '@guida/shared/jobs/sms-price';
import type { QueueDeclaration } from '../queue-declaration';
import { createFetchSmsPrice } from './fetch-sms-price';
import { createSweepSmsPrices } from './sweep-sms-prices';

/** Prices are not urgent: lost lookups are looked for every few minutes. */
const PRICE_SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * The price of each final Twilio SMS (decision 060): a few lookups at a time, at most 10 a
 * second across every worker, so the account's API rate stays for sending; retried with a
 * 60 s base over about a day (fetchSmsPriceJob), and the sweep of lookups whose job was lost.
 */
export const smsPriceQueue: QueueDeclaration = {
  queue: 'sms-price',
  concurrency: (config) => Math.min(config.WORKER_CONCURRENCY, 5),
  limiter: () => ({ max: 10, duration: 1000 }),
  retryBaseMs: (config) => config.SMS_PRICE_RETRY_BASE_MS,
  schedules: () => [{ job: sweepSmsPricesJob, everyMs: PRICE_SWEEP_INTERVAL_MS }],
  processor: ({ config, db, queues, logger, smsProvider }) => {
    const run: Record<string, (job: Job) => Promise<unknown>> = {
      [fetchSmsPriceJob.name]: createFetchSmsPrice({ db, logger, provider: smsProvider }),
      [sweepSmsPricesJob.name]: createSweepSmsPrices({ db, queues, logger, provider: smsProvider, graceMs: config.SWEEP_GRACE_MS }),
    };
    return async (job: Job) => {
      const task = run[job.name];
      if (!task) throw new UnrecoverableError(`unknown sms-price job ${job.name}`);
      return task(job);
    };
  },
};
