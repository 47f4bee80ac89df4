import { randomBytes } from 'node:crypto';
import { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySmsProviderReport, reopenSms } from '@guida/shared/deliveries/sms-deliveries';
import { openSmsPriceLookup } from '@guida/shared/deliveries/sms-prices';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { fetchSmsPriceJob } from '@guida/shared/jobs/sms-price';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { insertLead } from '@guida/testing/lead-fixture';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { createFetchSmsPrice } from './fetch-sms-price';
import { createSweepSmsPrices } from './sweep-sms-prices';

let twilio: FakeTwilio;
let worker: TestWorker;

beforeAll(async () => {
  // As Twilio: no price on the first fetch of a final message, the cost on the next ones.
  twilio = await startFakeTwilio({ prices: { price: '-0.07400', unit: 'EUR', afterFetches: 2 } });
  worker = await createTestWorker({ ...twilio.env, SMS_PRICE_RETRY_BASE_MS: '20' });
});
afterAll(async () => {
  await worker?.close();
  await twilio?.close();
});

const smsOf = (leadId: number) => worker.db('sms_messages').where({ lead_id: leadId }).first();
/** The price lookup of one message, as sms_prices keeps it. */
const priceOf = (sid: string) => worker.db('sms_prices').where({ provider_message_id: sid }).first();
const ended = async (sid: string) => {
  const row = await priceOf(sid);
  return row !== undefined && (row.fetched_at !== null || row.given_up_at !== null) && row;
};
const fetchesOf = (sid: string) => twilio.fetches.filter((fetched) => fetched === sid).length;

/** A lead whose guide SMS went through the fake Twilio and was reported with `status` (as the API records it). */
async function finalSms(status: 'delivered' | 'undelivered' = 'delivered') {
  const lead = await insertLead(worker.db);
  const before = twilio.messages.length;
  await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });
  const sid = (await twilio.waitForMessages(before + 1))[before]!.sid;
  await waitFor(async () => (await smsOf(lead.leadId)).status === 'sent', { what: 'the SMS sent' });
  // Twilio's own record follows the callbacks it posts; the API applies them.
  twilio.messages.find((message) => message.sid === sid)!.status = status;
  await applySmsProviderReport(worker.db, { providerMessageId: sid, smsId: null, status, providerStatus: status, errorCode: null });
  return { leadId: lead.leadId, sid };
}

const lookupJob = (messageSid: string, attemptsMade = 0) => {
  const job = new Job(worker.deps.queues.queue('sms-price'), fetchSmsPriceJob.name, { messageSid }, { attempts: fetchSmsPriceJob.attempts });
  job.attemptsMade = attemptsMade;
  return job;
};

describe('the price of a final SMS', () => {
  it('is asked again while Twilio reports none, then stored once, as a cost', async () => {
    const { leadId, sid } = await finalSms();
    await worker.deps.queues.enqueue(fetchSmsPriceJob, { messageSid: sid });

    const row = await waitFor(() => ended(sid), { what: 'the SMS price' });
    expect(row).toMatchObject({ sms_id: (await smsOf(leadId)).id, price: '0.07400', price_unit: 'EUR', given_up_at: null });
    expect(fetchesOf(sid)).toBe(2);
    const job = await worker.deps.queues.queue('sms-price').getJob(fetchSmsPriceJob.jobId({ messageSid: sid }));
    await waitFor(async () => (await job!.getState()) === 'completed', { what: 'the lookup job completed' });

    // Another run (a sweep, a stalled job) neither asks Twilio nor stores it again.
    const again = createFetchSmsPrice({ db: worker.db, logger: worker.deps.logger, provider: worker.deps.smsProvider });
    expect(await again(lookupJob(sid))).toBe('skipped: price already known');
    expect(fetchesOf(sid)).toBe(2);
    expect((await priceOf(sid)).price).toBe('0.07400');
  });

  it('is given up without a price on the last attempt, and at once for a message Twilio does not know', async () => {
    const fetchPrice = createFetchSmsPrice({ db: worker.db, logger: worker.deps.logger, provider: worker.deps.smsProvider });
    const { sid } = await finalSms('undelivered');
    // The reason the admin's queues tab shows is Italian.
    await expect(fetchPrice(lookupJob(sid))).rejects.toThrow('Twilio non ha ancora comunicato il prezzo del messaggio: nuovo tentativo più tardi');
    expect(await priceOf(sid)).toMatchObject({ price: null, fetched_at: null, given_up_at: null });

    const other = await finalSms();
    expect(await fetchPrice(lookupJob(other.sid, fetchSmsPriceJob.attempts - 1))).toBe('given up: the provider never reported a price');
    const givenUp = await priceOf(other.sid);
    expect(givenUp).toMatchObject({ price: null, fetched_at: null, given_up_at: expect.any(Date) });

    const unknown = await insertLead(worker.db);
    const unknownSid = `SM${randomBytes(16).toString('hex')}`;
    const [unknownSms] = await worker.db('sms_messages')
      .where({ lead_id: unknown.leadId })
      .update({ status: 'delivered', provider: 'twilio', provider_message_id: unknownSid, sent_at: worker.db.fn.now() })
      .returning<{ id: number }[]>('id');
    await openSmsPriceLookup(worker.db, unknownSms!.id, unknownSid);
    expect(await fetchPrice(lookupJob(unknownSid))).toBe('given up: Twilio non conosce il messaggio');
    expect((await priceOf(unknownSid)).given_up_at).toBeInstanceOf(Date);
  });

  it('of a lookup whose job was lost is found by the sweep, which adds each lookup once', async () => {
    const { leadId, sid } = await finalSms();
    const sweep = createSweepSmsPrices({
      db: worker.db,
      queues: worker.deps.queues,
      logger: worker.deps.logger,
      provider: worker.deps.smsProvider,
      graceMs: 0,
    });
    const first = await sweep();
    expect(first.enqueued).toBeGreaterThanOrEqual(1);
    await sweep();
    await waitFor(() => ended(sid), { what: 'the swept SMS priced' });
    expect(await priceOf(sid)).toMatchObject({ sms_id: (await smsOf(leadId)).id, price: '0.07400' });
    // Two sweeps, one job: the second found the first's (same job id).
    expect(fetchesOf(sid)).toBe(2);
  });

  it('of a message resent before it was priced is kept, beside the resend’s: the lead’s SMS cost their sum', async () => {
    const { leadId, sid } = await finalSms();
    // Not priced yet (its lookup job waits, or was lost) when the admin resends.
    await reopenSms(worker.db, leadId, 30, 'admin-resend');
    await worker.deps.queues.enqueueAgain(sendGuideSmsJob, [{ leadId }]);
    const resent = await waitFor(async () => {
      const sms = await smsOf(leadId);
      return sms.status === 'sent' && sms.provider_message_id !== sid && sms.provider_message_id;
    }, { what: 'the resend sent' });
    expect(await priceOf(sid)).toMatchObject({ price: null, fetched_at: null, given_up_at: null });
    twilio.messages.find((message) => message.sid === resent)!.status = 'delivered';
    await applySmsProviderReport(worker.db, { providerMessageId: resent, smsId: null, status: 'delivered', providerStatus: 'delivered', errorCode: null });

    // The resend's lookup first, then the earlier one's: neither closes the other.
    await worker.deps.queues.enqueue(fetchSmsPriceJob, { messageSid: resent });
    await waitFor(() => ended(resent), { what: 'the resend priced' });
    expect(await priceOf(sid)).toMatchObject({ price: null, fetched_at: null, given_up_at: null });
    await worker.deps.queues.enqueue(fetchSmsPriceJob, { messageSid: sid });
    await waitFor(() => ended(sid), { what: 'the earlier message priced' });

    const smsId = (await smsOf(leadId)).id;
    const rows = await worker.db('sms_prices').where({ sms_id: smsId }).orderBy('id').select('provider_message_id', 'price', 'price_unit');
    expect(rows).toEqual([
      { provider_message_id: sid, price: '0.07400', price_unit: 'EUR' },
      { provider_message_id: resent, price: '0.07400', price_unit: 'EUR' },
    ]);
    expect(await worker.db('sms_prices').where({ sms_id: smsId }).sum({ total: 'price' })).toEqual([{ total: '0.14800' }]);
  });
});

describe('with the outbox provider', () => {
  it('nothing is looked up or stored', async () => {
    const outbox = await createTestWorker({}, { start: false });
    try {
      const lead = await insertLead(outbox.db);
      await outbox.db('sms_messages')
        .where({ lead_id: lead.leadId })
        .update({ status: 'delivered', provider: 'outbox', provider_message_id: 'outbox-1', sent_at: outbox.db.fn.now() });
      const sweep = createSweepSmsPrices({
        db: outbox.db,
        queues: outbox.deps.queues,
        logger: outbox.deps.logger,
        provider: outbox.deps.smsProvider,
        graceMs: 0,
      });
      expect(await sweep()).toEqual({ enqueued: 0 });
      expect(await outbox.deps.queues.queue('sms-price').getJobCounts()).toMatchObject({ waiting: 0, delayed: 0 });
      expect(await outbox.db('sms_prices').where({ provider_message_id: 'outbox-1' })).toEqual([]);
    } finally {
      await outbox.close();
    }
  });
});
