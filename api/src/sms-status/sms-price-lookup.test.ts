import request from 'supertest';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reopenSms } from '@guida/shared/deliveries/sms-deliveries';
import { fetchSmsPriceJob } from '@guida/shared/jobs/sms-price';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestApi, type TestApi } from '../testing/test-api';

const AUTH_TOKEN = 'f3c1d2e4a5b60718293a4b5c6d7e8f90';
const PUBLIC_BASE_URL = 'https://guida.example.it';
const CALLBACK_URL = `${PUBLIC_BASE_URL}/api/sms/status`;

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi({ TWILIO_AUTH_TOKEN: AUTH_TOKEN, PUBLIC_BASE_URL });
});
afterAll(async () => {
  await api.close();
});

/** A lead whose SMS Twilio took as `sid`. */
async function sentSms(sid: string) {
  const { leadId } = await insertLead(api.db);
  await api.db('sms_messages')
    .where({ lead_id: leadId })
    .update({ status: 'sent', provider: 'twilio', provider_message_id: sid, sent_at: api.db.fn.now() });
  return leadId;
}

/** The open price lookups of these messages (sms_prices rows without a price or an end). */
const openLookups = async (...sids: string[]) =>
  (await api.db('sms_prices').whereIn('provider_message_id', sids).whereNull('fetched_at').whereNull('given_up_at').pluck('provider_message_id')).sort();

/** Twilio's signed status callback. */
function report(sid: string, status: string) {
  const params = { AccountSid: `AC${'0'.repeat(32)}`, MessageSid: sid, SmsSid: sid, MessageStatus: status, SmsStatus: status };
  return request(api.app)
    .post('/api/sms/status')
    .type('form')
    .set('X-Twilio-Signature', twilio.getExpectedTwilioSignature(AUTH_TOKEN, CALLBACK_URL, params))
    .send(params);
}

const lookupOf = (sid: string) => api.deps.queues.queue('sms-price').getJob(fetchSmsPriceJob.jobId({ messageSid: sid }));

describe('the status callback and the SMS price (decision 060)', () => {
  it('asks the worker for the price once the SMS is final, delivered or not, and not before', async () => {
    const delivered = `SM${'1'.repeat(32)}`;
    const failed = `SM${'2'.repeat(32)}`;
    await sentSms(delivered);
    await sentSms(failed);

    expect((await report(delivered, 'sent')).status).toBe(204);
    expect(await lookupOf(delivered)).toBeUndefined();
    expect(await openLookups(delivered)).toEqual([]);

    expect((await report(delivered, 'delivered')).status).toBe(204);
    expect((await lookupOf(delivered))?.data).toEqual({ messageSid: delivered });
    expect((await lookupOf(delivered))?.opts.attempts).toBe(fetchSmsPriceJob.attempts);

    expect((await report(failed, 'undelivered')).status).toBe(204);
    expect((await lookupOf(failed))?.data).toEqual({ messageSid: failed });
    // Opened with the final report, in the same statement: a lost job is found by the sweep.
    expect(await openLookups(delivered, failed)).toEqual([delivered, failed].sort());
  });

  it('keeps the lookup of a message an admin’s resend replaces, whose late final report no longer finds the SMS', async () => {
    const replaced = `SM${'3'.repeat(32)}`;
    const leadId = await sentSms(replaced);
    await reopenSms(api.db, leadId, 30, 'admin-resend');
    expect(await openLookups(replaced)).toEqual([replaced]);
    expect((await report(replaced, 'delivered')).status).toBe(204);
    expect(await api.db('sms_prices').where({ provider_message_id: replaced })).toHaveLength(1);
  });
});
