import type { Knex } from 'knex';
import { listSmsPricesDue } from '@guida/shared/deliveries/sms-prices';
import { fetchSmsPriceJob } from '@guida/shared/jobs/sms-price';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { SmsProvider } from '../providers/sms-provider';

export interface SweepSmsPricesDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  provider: SmsProvider;
  /** Lookups opened less than this ago are left to the API, which enqueues them with the report. */
  graceMs: number;
  batchSize?: number;
}

/**
 * Twilio messages whose price lookup is still open (sms_prices) get their lookup job again: one whose
 * job never reached Redis or was lost with it is created, one still retrying is left alone
 * (same job id). Nothing while the worker runs a provider that reports no prices.
 */
export function createSweepSmsPrices({ db, queues, logger, provider, graceMs, batchSize = 500 }: SweepSmsPricesDeps) {
  return async function sweepSmsPrices() {
    if (!provider.fetchPrice) return { enqueued: 0 };
    const due = await listSmsPricesDue(db, { graceMs, limit: batchSize });
    await queues.enqueueMany(fetchSmsPriceJob, due.map((messageSid) => ({ messageSid })));
    if (due.length > 0) logger.info({ count: due.length }, 'SMS price lookups (re-)enqueued');
    return { enqueued: due.length };
  };
}
