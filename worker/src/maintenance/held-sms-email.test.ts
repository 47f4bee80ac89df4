import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseHeldSms } from '@guida/shared/deliveries/sms-deliveries';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { insertLead } from '@guida/testing/lead-fixture';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';

/**
 * An SMS held by a budget breaks the promise of 2 minutes: after SMS_HELD_EMAIL_AFTER_MINUTES
 * its link goes by email too, once; and an SMS released after the guide was downloaded from
 * that link is not sent. The real worker, Postgres, Redis and the twilio client against the
 * fake Twilio.
 */
let twilio: FakeTwilio;
let worker: TestWorker;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  worker = await createTestWorker({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: 'GuidaFin',
    TWILIO_API_BASE_URL: twilio.url,
    // Every SMS of the test is held: the global budget allows one an hour, used up first.
    SMS_BUDGET_GLOBAL_PER_HOUR: '1',
    SMS_HELD_EMAIL_AFTER_MINUTES: '10',
  });
});
afterAll(async () => {
  await worker.close();
  await twilio.close();
});

const sweep = () => worker.sweeper()();
const statusOf = async (leadId: number) => (await worker.db('sms_messages').where({ lead_id: leadId }).first()).status as string;
const send = (leadIds: number[]) => worker.deps.queues.enqueueAgain(sendGuideSmsJob, leadIds.map((leadId) => ({ leadId })));
const heldFor = (leadId: number, minutes: number) =>
  worker.db('sms_messages').where({ lead_id: leadId }).update({ updated_at: worker.db.raw('now() - make_interval(mins => ?)', [minutes]) });

describe('an SMS held by a budget', () => {
  it('sends its link by email after SMS_HELD_EMAIL_AFTER_MINUTES, once', async () => {
    const [first, recent, long] = [await insertLead(worker.db), await insertLead(worker.db), await insertLead(worker.db)];
    await send([first!.leadId]);
    await waitFor(async () => (await statusOf(first!.leadId)) === 'sent', { what: 'the first SMS to use up the budget' });
    await send([recent!.leadId, long!.leadId]);
    await waitFor(async () => (await statusOf(recent!.leadId)) === 'held' && (await statusOf(long!.leadId)) === 'held', {
      what: 'both SMS to be held',
    });
    await heldFor(recent!.leadId, 9);
    await heldFor(long!.leadId, 11);

    expect((await sweep()).heldLinksEmailed).toBe(1);
    expect((await sweep()).heldLinksEmailed).toBe(0);
    const emails = await worker.db('email_messages').whereIn('lead_id', [recent!.leadId, long!.leadId]).select('lead_id', 'kind');
    expect(emails).toEqual([{ lead_id: long!.leadId, kind: 'guide-link' }]);
  });

  it('is not sent when released after the guide was downloaded from the emailed link', async () => {
    twilio.messages.length = 0;
    const [downloaded, waiting] = [await insertLead(worker.db), await insertLead(worker.db)];
    await send([downloaded!.leadId, waiting!.leadId]);
    await waitFor(async () => (await statusOf(downloaded!.leadId)) === 'held' && (await statusOf(waiting!.leadId)) === 'held', {
      what: 'both SMS to be held',
    });
    await worker.db('guide_downloads').insert({ lead_id: downloaded!.leadId });

    await send(await releaseHeldSms(worker.db, 'admin-release'));
    await waitFor(async () => (await statusOf(waiting!.leadId)) === 'sent', { what: 'the released SMS to be sent' });
    await waitFor(async () => (await statusOf(downloaded!.leadId)) === 'skipped', { what: 'the downloaded lead’s SMS to be skipped' });
    // (The release sends the SMS still held by the test before as well.)
    const sentTo = twilio.messages.map((message) => message.to);
    expect(sentTo).toContain(waiting!.telefono);
    expect(sentTo).not.toContain(downloaded!.telefono);
    const skipped = await worker.db('sms_messages').where({ lead_id: downloaded!.leadId }).first();
    expect(skipped.error_message).toBe('the guide was downloaded from the link sent by email');
  });
});
