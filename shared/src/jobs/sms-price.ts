import { z } from 'zod';
import { defineJob } from './definition';

/** Twilio's message sid: the SMS's id at the provider, no personal data. */
export const TWILIO_MESSAGE_SID = /^(SM|MM)[0-9a-f]{32}$/i;

/**
 * Asks Twilio for the price of a final SMS until it reports one (decision 060). Twilio
 * fills the price in some time after the last status, sometimes hours later: the job is
 * retried with the sms-price queue's backoff (60 s base, capped at 6 h between tries), and
 * its last attempt, about a day after the first, records that no price came.
 */
export const fetchSmsPriceJob = defineJob({
  queue: 'sms-price',
  name: 'fetch-sms-price',
  schema: z.object({ messageSid: z.string().regex(TWILIO_MESSAGE_SID) }),
  // One lookup per message: a resend is another message, with a lookup of its own.
  jobId: ({ messageSid }) => `sms-price-${messageSid}`,
  // 60 s base: 1, 2, 4 ... 256 min, then 6 h three times: the last try about 26 h after the first.
  attempts: 13,
});

/** Finds final Twilio SMS still without a price whose lookup job was lost; on a job scheduler. */
export const sweepSmsPricesJob = defineJob({
  queue: 'sms-price',
  name: 'sweep-sms-prices',
  schema: z.object({}),
  jobId: () => 'sweep-sms-prices',
  attempts: 1,
});
