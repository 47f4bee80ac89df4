import type { Job } from 'bullmq';
import type { Knex } from 'knex';
import { recordSmsPrice, recordSmsPriceGivenUp, smsPriceLookup, type ReportedPrice } from '@guida/shared/deliveries/sms-prices';
import { fetchSmsPriceJob } from '@guida/shared/jobs/sms-price';
import type { Logger } from '@guida/shared/server/logger';
import { SmsSendError, type SmsProvider } from '../providers/sms-provider';

export interface FetchSmsPriceDeps {
  db: Knex;
  logger: Logger;
  provider: SmsProvider;
}

/**
 * Thrown while Twilio has not filled the price in, or cannot be asked: the job is retried
 * with the queue's backoff. In Italian: it is the reason the admin's queues tab shows
 * (the provider's own English detail goes to the log).
 */
export class PriceNotReportedError extends Error {
  constructor(reason: 'not-reported' | 'provider-error') {
    super(
      reason === 'not-reported'
        ? 'Twilio non ha ancora comunicato il prezzo del messaggio: nuovo tentativo più tardi'
        : 'Twilio non ha risposto alla richiesta del prezzo: nuovo tentativo più tardi',
    );
    this.name = 'PriceNotReportedError';
  }
}

/**
 * Asks the provider for the price of one final SMS and stores it, once (decision 060).
 * Until the provider reports it, or while the provider cannot be reached, the job fails
 * and is retried; its last attempt ends the lookup without a price instead, as does a
 * message the provider no longer knows, so a lookup never stays open for ever.
 */
export function createFetchSmsPrice(deps: FetchSmsPriceDeps) {
  const { db, logger, provider } = deps;
  return async function fetchSmsPrice(job: Job): Promise<string> {
    const { messageSid } = fetchSmsPriceJob.schema.parse(job.data);
    const sms = await smsPriceLookup(db, messageSid);
    if (!sms) return 'skipped: no price lookup for this message (its lead was erased)';
    if (!sms.open) return 'skipped: price already known';
    if (!provider.fetchPrice) return `skipped: the ${provider.name} provider reports no prices`;

    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const giveUp = async (reason: string) => {
      await recordSmsPriceGivenUp(db, messageSid);
      logger.warn({ leadId: sms.leadId, smsId: sms.smsId, reason }, 'SMS price lookup given up: no price stored');
      return `given up: ${reason}`;
    };

    let reported: ReportedPrice | null;
    try {
      reported = await provider.fetchPrice(messageSid);
    } catch (error) {
      if (error instanceof SmsSendError && error.kind === 'permanent') return giveUp(error.message);
      if (lastAttempt) return giveUp(`provider unreachable: ${(error as Error).message}`);
      logger.warn({ leadId: sms.leadId, smsId: sms.smsId, err: (error as Error).message }, 'SMS price lookup failed; retried');
      throw new PriceNotReportedError('provider-error');
    }
    if (!reported) {
      if (lastAttempt) return giveUp('the provider never reported a price');
      throw new PriceNotReportedError('not-reported');
    }
    if (!(await recordSmsPrice(db, messageSid, reported))) return 'skipped: price stored meanwhile';
    logger.info({ leadId: sms.leadId, smsId: sms.smsId }, 'SMS price stored');
    return 'stored';
  };
}
