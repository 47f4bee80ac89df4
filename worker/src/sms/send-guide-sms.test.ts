import { Job } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { sha256Hex } from '@guida/shared/server/personal-data-hash';
import { TWILIO_ERRORS, startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { insertLead } from '@guida/testing/lead-fixture';
import { claimTimeouts } from '../claim-timeouts';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { gsm7Length } from './gsm7';
import type { SmsProvider } from '../providers/sms-provider';
import { createTwilioSmsProvider } from '../providers/twilio-sms-provider';
import { createSendGuideSms } from './send-guide-sms';
import { createSendRate } from './send-rate';

let twilio: FakeTwilio;
let smtp: SmtpCapture;
let worker: TestWorker;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  smtp = await startSmtpCapture();
  worker = await createTestWorker({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: 'GuidaFin',
    TWILIO_API_BASE_URL: twilio.url,
    SMTP_URL: smtp.url,
  });
});
afterAll(async () => {
  await worker.close();
  await twilio.close();
  await smtp.close();
});
beforeEach(() => {
  twilio.messages.length = 0;
  twilio.refused.length = 0;
  twilio.respondAfter(0);
  smtp.emails.length = 0;
});

const smsRow = (leadId: number) => worker.db('sms_messages').where({ lead_id: leadId }).first();
const timeline = async (leadId: number) => {
  const sms = await smsRow(leadId);
  const events = await worker.db('sms_events').where({ sms_message_id: sms.id }).orderBy('id');
  return events.map((event) => event.status);
};
const waitForStatus = (leadId: number, status: string) =>
  waitFor(async () => {
    const row = await smsRow(leadId);
    return row.status === status && row;
  }, { what: `SMS of lead ${leadId} to be ${status}` });

describe('sms queue with the real twilio client', () => {
  it('sends one GSM-7 single-segment SMS with the personal link, validity period and callback', async () => {
    const lead = await insertLead(worker.db, { nome: 'Nicolò' });
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });

    const [message] = await twilio.waitForMessages(1);
    expect(message).toMatchObject({
      to: lead.telefono,
      from: 'GuidaFin',
      validityPeriod: '300',
    });
    const sms = await smsRow(lead.leadId);
    // The callback URL names our SMS, so a report that arrives before its sid is recorded still finds it.
    expect(message!.statusCallback).toBe(`https://guida.example.it/api/sms/status?sms=${sms.id}`);
    expect(message!.body).toBe(
      `Ciao Nicolò, ecco la tua guida gratuita: https://guida.example.it/g/${lead.token} (link valido 30 giorni)`,
    );
    expect(gsm7Length(message!.body)).toBeLessThanOrEqual(160);

    const row = await waitForStatus(lead.leadId, 'sent');
    expect(row).toMatchObject({ provider: 'twilio', provider_message_id: message!.sid, attempts: 1 });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(await timeline(lead.leadId)).toEqual(['sending', 'sent']);
  });

  it('stores only the hash of the link it sends, the same link on every run', async () => {
    const lead = await insertLead(worker.db);
    // A link stored before tokens were derived (hashed by the migration) is replaced by
    // the derived one when a message carrying a link goes out.
    await worker.db('download_tokens').where({ lead_id: lead.leadId }).update({ token_hash: sha256Hex('an-old-random-token') });
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });
    const [message] = await twilio.waitForMessages(1);
    expect(message!.body).toContain(`https://guida.example.it/g/${lead.token}`);
    const link = await worker.db('download_tokens').where({ lead_id: lead.leadId }).first();
    expect(link).not.toHaveProperty('token');
    expect(link.token_hash).toBe(sha256Hex(lead.token));

    // The admin's resend (or a sweep after a lost job) rebuilds the same link from the lead id.
    await waitForStatus(lead.leadId, 'sent');
    await worker.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'pending' });
    await worker.deps.queues.queue('sms').add(sendGuideSmsJob.name, { leadId: lead.leadId }, { jobId: `again-${lead.leadId}` });
    const [, again] = await twilio.waitForMessages(2);
    expect(again!.body).toBe(message!.body);
  });

  it('retries a transient failure with backoff, then sends', async () => {
    twilio.failNext(TWILIO_ERRORS.serverError);
    const lead = await insertLead(worker.db);
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });

    await twilio.waitForMessages(1);
    const row = await waitForStatus(lead.leadId, 'sent');
    expect(row.attempts).toBe(2);
    expect(twilio.refused).toEqual([{ status: 500, code: 20500 }]);
    expect(await timeline(lead.leadId)).toEqual(['sending', 'retrying', 'sending', 'sent']);
  });

  it('does not retry a permanent failure and sends the link by email instead', async () => {
    twilio.failNext(TWILIO_ERRORS.invalidTo);
    const lead = await insertLead(worker.db, { email: 'lucia.neri@example.it', nome: 'Lucia' });
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });

    const row = await waitForStatus(lead.leadId, 'failed');
    expect(row).toMatchObject({ attempts: 1, error_code: '21211' });
    expect(row.failed_at).toBeInstanceOf(Date);

    const [email] = await smtp.waitForEmails(1);
    expect(email!.to).toEqual(['lucia.neri@example.it']);
    expect(email!.subject).toBe('La tua guida gratuita');
    expect(email!.text).toContain(`Scarica la tua guida gratuita: https://guida.example.it/g/${lead.token}`);
    expect(email!.text).toContain('Ciao Lucia,');
    await waitFor(async () => {
      const message = await worker.db('email_messages').where({ lead_id: lead.leadId }).first();
      return message?.status === 'delivered';
    });

    // Still exactly one request: no retry of a permanent failure (a retry would leave the
    // job delayed or waiting; failed is final).
    const jobId = sendGuideSmsJob.jobId({ leadId: lead.leadId });
    await waitFor(async () => (await worker.deps.queues.queue('sms').getJobState(jobId)) === 'failed', {
      what: 'the SMS job to fail for good',
    });
    expect(twilio.refused).toEqual([{ status: 400, code: 21211 }]);
    expect(twilio.messages).toEqual([]);
    expect(await timeline(lead.leadId)).toEqual(['sending', 'failed']);
  });

  it('gives up after the last attempt and falls back to email', async () => {
    const failures = Array(sendGuideSmsJob.attempts).fill(TWILIO_ERRORS.serverError);
    twilio.failNext(...failures);
    const lead = await insertLead(worker.db);
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });

    const row = await waitForStatus(lead.leadId, 'failed');
    expect(row.attempts).toBe(sendGuideSmsJob.attempts);
    expect(twilio.refused).toHaveLength(sendGuideSmsJob.attempts);
    await smtp.waitForEmails(1);
  });

  it('slows down on 429 and then sends', async () => {
    twilio.failNext(TWILIO_ERRORS.tooManyRequests);
    const lead = await insertLead(worker.db);
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });
    const row = await waitForStatus(lead.leadId, 'sent');
    expect(twilio.refused).toEqual([{ status: 429, code: 20429 }]);
    expect(twilio.messages).toHaveLength(1);
    // The rate-limited run handed its claim back without using an attempt.
    expect(row.attempts).toBe(1);
    expect(await timeline(lead.leadId)).toEqual(['sending', 'pending', 'sending', 'sent']);
  });

  it('sends nothing twice: not for a repeated job, not to a phone served in the last 24 hours', async () => {
    const first = await insertLead(worker.db);
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: first.leadId });
    await waitForStatus(first.leadId, 'sent');

    // The same lead again under another job id (as after a manual re-queue).
    await worker.deps.queues.queue('sms').add(sendGuideSmsJob.name, { leadId: first.leadId }, { jobId: 'again' });
    // Another lead with the same phone, as if it bypassed the API's 24-hour window.
    const second = await insertLead(worker.db, { telefono: first.telefono });
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: second.leadId });

    const skipped = await waitForStatus(second.leadId, 'skipped');
    expect(skipped.error_message).toMatch(/24 hours/);
    await waitFor(async () => (await worker.deps.queues.queue('sms').getJobState('again')) === 'completed');
    expect(twilio.messages).toHaveLength(1);
  });

  it('sends once when two runs of the same job overlap (a stalled job recovered mid-send)', async () => {
    twilio.respondAfter(300);
    const lead = await insertLead(worker.db);
    const sendGuideSms = createSendGuideSms({
      db: worker.db,
      queues: worker.deps.queues,
      logger: worker.deps.logger,
      metrics: worker.deps.metrics,
      provider: worker.deps.smsProvider,
      publicBaseUrl: worker.config.PUBLIC_BASE_URL,
      linkTokenSecret: worker.config.LINK_TOKEN_SECRET,
      claimTimeoutMs: claimTimeouts(worker.config).sms,
      budget: { limits: smsBudgetLimits(worker.config), now: () => new Date() },
      rateLimit: (ms) => worker.deps.queues.queue('sms').rateLimit(ms),
      waitForSendSlot: createSendRate(worker.deps.connection, worker.config.REDIS_KEY_PREFIX, worker.config.SMS_RATE_PER_SECOND),
    });
    // The same job twice, as BullMQ hands it to a second worker when the first one's lock lapses.
    const run = () =>
      sendGuideSms(
        new Job(worker.deps.queues.queue('sms'), sendGuideSmsJob.name, { leadId: lead.leadId }, {
          attempts: sendGuideSmsJob.attempts,
        }),
      );

    const outcomes = await Promise.all([run(), run()]);
    expect(outcomes.sort()).toEqual(['sent', 'skipped: already sending']);
    expect(twilio.messages).toHaveLength(1);
    expect(await smsRow(lead.leadId)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await timeline(lead.leadId)).toEqual(['sending', 'sent']);
  });
});

describe('an SMS claim left by a worker that stopped mid-send, with Twilio', () => {
  const sendWith = (provider: SmsProvider) =>
    createSendGuideSms({
      db: worker.db,
      queues: worker.deps.queues,
      logger: worker.deps.logger,
      metrics: worker.deps.metrics,
      provider,
      publicBaseUrl: worker.config.PUBLIC_BASE_URL,
      linkTokenSecret: worker.config.LINK_TOKEN_SECRET,
      claimTimeoutMs: claimTimeouts(worker.config).sms,
      budget: { limits: smsBudgetLimits(worker.config), now: () => new Date() },
      rateLimit: (ms) => worker.deps.queues.queue('sms').rateLimit(ms),
      waitForSendSlot: createSendRate(worker.deps.connection, worker.config.REDIS_KEY_PREFIX, worker.config.SMS_RATE_PER_SECOND),
    });
  const jobOf = (leadId: number) =>
    new Job(worker.deps.queues.queue('sms'), sendGuideSmsJob.name, { leadId }, { attempts: sendGuideSmsJob.attempts });
  /** Claimed (and maybe handed to Twilio) by a worker that stopped before recording the outcome. */
  async function abandonedLead() {
    const lead = await insertLead(worker.db);
    await worker.db('sms_messages')
      .where({ lead_id: lead.leadId })
      .update({
        status: 'sending',
        attempts: 1,
        updated_at: worker.db.raw('now() - make_interval(secs => ?)', [claimTimeouts(worker.config).sms / 1000 + 1]),
      });
    return lead;
  }

  it('finds the SMS in Twilio\'s Messages list and does not send it again', async () => {
    const lead = await abandonedLead();
    const sms = await smsRow(lead.leadId);
    // What the stopped worker handed over; other messages to the same phone do not match.
    await worker.deps.smsProvider.send({ to: lead.telefono, body: 'Un altro messaggio', leadId: lead.leadId, smsId: sms.id });
    const { providerMessageId } = await worker.deps.smsProvider.send({
      to: lead.telefono,
      body: `Ecco la tua guida: https://guida.example.it/g/${lead.token}`,
      leadId: lead.leadId,
      smsId: sms.id,
    });

    expect(await sendWith(worker.deps.smsProvider)(jobOf(lead.leadId))).toBe('sent before its worker stopped');
    expect(twilio.messages).toHaveLength(2);
    expect(await smsRow(lead.leadId)).toMatchObject({ status: 'sent', provider_message_id: providerMessageId });
  });

  it('sends it when Twilio never got it', async () => {
    const lead = await abandonedLead();
    expect(await sendWith(worker.deps.smsProvider)(jobOf(lead.leadId))).toBe('sent');
    expect(twilio.messages.map((message) => message.to)).toEqual([lead.telefono]);
  });

  it('leaves the claim abandoned when Twilio cannot be asked, so the next run asks again', async () => {
    const lead = await abandonedLead();
    const before = await smsRow(lead.leadId);
    const unauthorised = createTwilioSmsProvider({
      accountSid: twilio.accountSid,
      authToken: 'not-the-auth-token-0123',
      from: 'GuidaFin',
      apiBaseUrl: twilio.url,
      statusCallbackUrl: 'https://guida.example.it/api/sms/status',
      validitySeconds: 300,
    });

    await expect(sendWith(unauthorised)(jobOf(lead.leadId))).rejects.toThrow();
    expect(twilio.messages).toHaveLength(0);
    expect(await smsRow(lead.leadId)).toMatchObject({ status: 'sending', attempts: 1, updated_at: before.updated_at });

    expect(await sendWith(worker.deps.smsProvider)(jobOf(lead.leadId))).toBe('sent');
    expect(twilio.messages).toHaveLength(1);
  });
});

describe('an SMS claim left by a worker that stopped mid-send', () => {
  let outbox: TestWorker;
  beforeAll(async () => {
    // The outbox provider: what "the provider took it" means is a row in outbox_messages.
    outbox = await createTestWorker({}, { start: false });
  });
  afterAll(async () => {
    await outbox.close();
  });

  const send = () =>
    createSendGuideSms({
      db: outbox.db,
      queues: outbox.deps.queues,
      logger: outbox.deps.logger,
      metrics: outbox.deps.metrics,
      provider: outbox.deps.smsProvider,
      publicBaseUrl: outbox.config.PUBLIC_BASE_URL,
      linkTokenSecret: outbox.config.LINK_TOKEN_SECRET,
      claimTimeoutMs: claimTimeouts(outbox.config).sms,
      budget: { limits: smsBudgetLimits(outbox.config), now: () => new Date() },
      rateLimit: (ms) => outbox.deps.queues.queue('sms').rateLimit(ms),
      waitForSendSlot: createSendRate(outbox.deps.connection, outbox.config.REDIS_KEY_PREFIX, outbox.config.SMS_RATE_PER_SECOND),
    });
  const run = (leadId: number) =>
    send()(new Job(outbox.deps.queues.queue('sms'), sendGuideSmsJob.name, { leadId }, { attempts: sendGuideSmsJob.attempts }));
  /** As a worker leaves it when it stops between its claim and the outcome, `ageMs` ago. */
  const abandonClaim = (leadId: number, ageMs: number) =>
    outbox.db('sms_messages')
      .where({ lead_id: leadId })
      .update({ status: 'sending', attempts: 1, updated_at: outbox.db.raw('now() - make_interval(secs => ?)', [ageMs / 1000]) });
  const outboxTo = (telefono: string) => outbox.db('outbox_messages').where({ channel: 'sms', recipient: telefono });
  const eventsOf = async (leadId: number) => {
    const sms = await outbox.db('sms_messages').where({ lead_id: leadId }).first();
    return (await outbox.db('sms_events').where({ sms_message_id: sms.id }).orderBy('id')).map((event) => event.status);
  };

  it('is left alone while younger than the claim timeout (its worker may still be sending)', async () => {
    const lead = await insertLead(outbox.db);
    await abandonClaim(lead.leadId, claimTimeouts(outbox.config).sms - 10_000);
    expect(await run(lead.leadId)).toBe('skipped: already sending');
    expect(await outboxTo(lead.telefono)).toHaveLength(0);
  });

  it('is taken over once older than the claim timeout, and the SMS the provider never got is sent', async () => {
    const lead = await insertLead(outbox.db);
    await abandonClaim(lead.leadId, claimTimeouts(outbox.config).sms + 1000);
    expect(await run(lead.leadId)).toBe('sent');
    const messages = await outboxTo(lead.telefono);
    expect(messages).toHaveLength(1);
    expect(messages[0].body).toContain(`/g/${lead.token}`);
    expect(await outbox.db('sms_messages').where({ lead_id: lead.leadId }).first()).toMatchObject({
      status: 'sent',
      attempts: 1,
      provider_message_id: `outbox-${messages[0].id}`,
    });
    expect(await eventsOf(lead.leadId)).toEqual(['sending', 'sent']);
  });

  it('is taken over without sending again when the provider already took the SMS before its worker stopped', async () => {
    const lead = await insertLead(outbox.db);
    await abandonClaim(lead.leadId, claimTimeouts(outbox.config).sms + 1000);
    // What the stopped worker handed over before it could record it.
    const [earlier] = await outbox.db('outbox_messages')
      .insert({ channel: 'sms', recipient: lead.telefono, body: `Ecco la tua guida: https://guida.example.it/g/${lead.token}` })
      .returning('id');

    expect(await run(lead.leadId)).toBe('sent before its worker stopped');
    expect(await outboxTo(lead.telefono)).toHaveLength(1);
    expect(await outbox.db('sms_messages').where({ lead_id: lead.leadId }).first()).toMatchObject({
      status: 'sent',
      provider_message_id: `outbox-${earlier.id}`,
      error_message: expect.stringMatching(/found at the provider/),
    });
    expect(await eventsOf(lead.leadId)).toEqual(['sending', 'sent']);
    // A second run finds it done.
    expect(await run(lead.leadId)).toBe('skipped: already sent');
  });
});
