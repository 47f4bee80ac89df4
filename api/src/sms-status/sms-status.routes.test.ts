import request from 'supertest';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@guida/shared/messages';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

const AUTH_TOKEN = 'f3c1d2e4a5b60718293a4b5c6d7e8f90';
const PUBLIC_BASE_URL = 'https://guida.example.it';
const CALLBACK_URL = `${PUBLIC_BASE_URL}/api/sms/status`;

let api: TestApi;
let sidCounter = 0;

/** A lead whose SMS the worker handed to Twilio under a fresh message sid. */
async function sentSms() {
  const created = await request(api.app).post('/api/ebook-request').send(validLead());
  sidCounter += 1;
  const sid = `SM${String(sidCounter).padStart(32, '0')}`;
  await api.db('sms_messages').where({ lead_id: created.body.id }).update({
    status: 'sent',
    provider: 'twilio',
    provider_message_id: sid,
    sent_at: api.db.fn.now(),
  });
  return { leadId: created.body.id as number, sid };
}

function callback(
  params: Record<string, string>,
  signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, CALLBACK_URL, params),
  query = '',
) {
  return request(api.app)
    .post(`/api/sms/status${query}`)
    .type('form')
    .set('X-Twilio-Signature', signature)
    .send(params);
}

const statusParams = (sid: string, status: string, errorCode?: string) => ({
  AccountSid: 'AC00000000000000000000000000000000',
  MessageSid: sid,
  SmsSid: sid,
  MessageStatus: status,
  SmsStatus: status,
  To: '+393470000000',
  ...(errorCode ? { ErrorCode: errorCode } : {}),
});

beforeAll(async () => {
  api = await createTestApi({ TWILIO_AUTH_TOKEN: AUTH_TOKEN, PUBLIC_BASE_URL });
});
afterAll(async () => {
  await api.close();
});

describe('POST /api/sms/status', () => {
  it('records a delivery once and ignores repeats and late statuses', async () => {
    const { leadId, sid } = await sentSms();
    expect((await callback(statusParams(sid, 'delivered'))).status).toBe(204);
    expect((await callback(statusParams(sid, 'delivered'))).status).toBe(204);
    expect((await callback(statusParams(sid, 'sent'))).status).toBe(204);

    const sms = await api.db('sms_messages').where({ lead_id: leadId }).first();
    expect(sms.status).toBe('delivered');
    expect(sms.delivered_at).toBeInstanceOf(Date);
    const events = await api.db('sms_events').where({ sms_message_id: sms.id });
    expect(events.map((e) => [e.status, e.provider_status])).toEqual([['delivered', 'delivered']]);
  });

  it('records an undelivered SMS with its error code and schedules the email with the link', async () => {
    const { leadId, sid } = await sentSms();
    expect((await callback(statusParams(sid, 'undelivered', '30003'))).status).toBe(204);

    const sms = await api.db('sms_messages').where({ lead_id: leadId }).first();
    expect(sms).toMatchObject({ status: 'undelivered', error_code: '30003' });
    expect(sms.failed_at).toBeInstanceOf(Date);
    const email = await api.db('email_messages').where({ lead_id: leadId }).first();
    expect(email).toMatchObject({ kind: 'guide-link', status: 'pending' });
    const job = await api.deps.queues.queue('email').getJob(`email-${email.id}`);
    expect(job?.data).toEqual({ emailMessageId: email.id });

    // A later "failed" for the same message schedules nothing more.
    await callback(statusParams(sid, 'failed', '30003'));
    expect(await api.db('email_messages').where({ lead_id: leadId }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('refuses callbacks without a valid signature and changes nothing', async () => {
    const { leadId, sid } = await sentSms();
    const params = statusParams(sid, 'delivered');
    const missing = await request(api.app).post('/api/sms/status').type('form').send(params);
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ message: apiMessages.invalidSignature });

    const forged = await callback(params, twilio.getExpectedTwilioSignature('another-token-123456', CALLBACK_URL, params));
    expect(forged.status).toBe(403);
    const otherUrl = await callback(params, twilio.getExpectedTwilioSignature(AUTH_TOKEN, 'https://evil.example/api/sms/status', params));
    expect(otherUrl.status).toBe(403);
    const tampered = await callback({ ...params, MessageStatus: 'failed' }, twilio.getExpectedTwilioSignature(AUTH_TOKEN, CALLBACK_URL, params));
    expect(tampered.status).toBe(403);

    expect(await api.db('sms_messages').where({ lead_id: leadId }).first()).toMatchObject({ status: 'sent' });
  });

  it('accepts and ignores statuses we do not track and unknown messages', async () => {
    const { leadId, sid } = await sentSms();
    expect((await callback(statusParams(sid, 'read'))).status).toBe(204);
    expect((await callback(statusParams(`SM${'f'.repeat(32)}`, 'delivered'))).status).toBe(204);
    expect(await api.db('sms_messages').where({ lead_id: leadId }).first()).toMatchObject({ status: 'sent' });
  });

  it('answers 400 to a signed callback with a malformed message sid', async () => {
    const response = await callback(statusParams('not-a-sid', 'delivered'));
    expect(response.status).toBe(400);
  });

  it('finds the SMS named in its callback URL when the report comes before the worker recorded the sid', async () => {
    const created = await request(api.app).post('/api/ebook-request').send(validLead());
    // Claimed and handed to Twilio; the worker has not written Twilio's answer yet (or stopped).
    await api.db('sms_messages').where({ lead_id: created.body.id }).update({ status: 'sending' });
    const sms = await api.db('sms_messages').where({ lead_id: created.body.id }).first();
    const sid = `SM${'a'.repeat(32)}`;
    const query = `?sms=${sms.id}`;
    const signed = (params: Record<string, string>) =>
      twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${CALLBACK_URL}${query}`, params);

    // Signed for another SMS id: the URL is part of what Twilio signs.
    const params = statusParams(sid, 'sent');
    const moved = await callback(params, twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${CALLBACK_URL}?sms=1`, params), query);
    expect(moved.status).toBe(403);

    expect((await callback(params, signed(params), query)).status).toBe(204);
    expect(await api.db('sms_messages').where({ id: sms.id }).first()).toMatchObject({
      status: 'sent',
      provider_message_id: sid,
      sent_at: expect.any(Date),
    });
    const delivered = statusParams(sid, 'delivered');
    expect((await callback(delivered, signed(delivered), query)).status).toBe(204);
    expect(await api.db('sms_messages').where({ id: sms.id }).first()).toMatchObject({ status: 'delivered' });

    // Another message's report naming this SMS does not take it over.
    const other = statusParams(`SM${'b'.repeat(32)}`, 'failed');
    expect((await callback(other, signed(other), query)).status).toBe(204);
    expect(await api.db('sms_messages').where({ id: sms.id }).first()).toMatchObject({ status: 'delivered', provider_message_id: sid });
    const events = await api.db('sms_events').where({ sms_message_id: sms.id }).orderBy('id');
    expect(events.map((event) => event.status)).toEqual(['sent', 'delivered']);
  });
});
