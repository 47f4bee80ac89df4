import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseHeldSms } from '@guida/shared/deliveries/sms-deliveries';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { insertLead } from '@guida/testing/lead-fixture';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';

/**
 * The SMS budgets against the real worker, Postgres, Redis and the real Twilio client
 * talking to the fake Twilio. The budgets' clock is the test's: moving it past a window
 * is what an hour (or a day) passing means to them.
 */
let twilio: FakeTwilio;
let worker: TestWorker;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);
const HOUR_MS = 3600_000;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  worker = await createTestWorker(
    {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: 'GuidaFin',
      TWILIO_API_BASE_URL: twilio.url,
      SMS_BUDGET_GLOBAL_PER_HOUR: '6',
      SMS_BUDGET_GLOBAL_PER_DAY: '9',
      SMS_BUDGET_BLOCK_PER_HOUR: '2',
      SMS_BUDGET_BLOCK_PER_DAY: '3',
      // The fixture's leads are untrusted; these tests count whole budgets, the share kept
      // for trusted leads is sms-budget-clients.test.ts's.
      SMS_BUDGET_TRUSTED_SHARE_PERCENT: '0',
    },
    { now },
  );
});
afterAll(async () => {
  await worker.close();
  await twilio.close();
});

const sweep = () => worker.sweeper({ now })();

const statusOf = async (leadId: number) => (await worker.db('sms_messages').where({ lead_id: leadId }).first()).status as string;
const timeline = async (leadId: number) => {
  const sms = await worker.db('sms_messages').where({ lead_id: leadId }).first();
  return worker.db('sms_events').where({ sms_message_id: sms.id }).orderBy('id').pluck('status');
};
/** Waits until every lead's SMS is sent or held; their statuses in order. */
const settled = (leadIds: number[]) =>
  waitFor(
    async () => {
      const statuses = await Promise.all(leadIds.map(statusOf));
      return statuses.every((status) => status === 'sent' || status === 'held') && statuses;
    },
    { what: 'every SMS sent or held' },
  );
/** As the API and the admin's release do: a finished job of the same lead is replaced. */
const enqueue = (leadIds: number[]) =>
  worker.deps.queues.enqueueAgain(sendGuideSmsJob, leadIds.map((leadId) => ({ leadId })));
const sentTo = () => twilio.messages.map((message) => message.to);

async function leadsIn(block: string, count: number) {
  const leads = [];
  for (let index = 0; index < count; index += 1) {
    // Distinct phones of one block, created in this order (the sweeper resumes oldest first).
    leads.push(await insertLead(worker.db, { telefono: `+${block}${String(100_000 + index + Math.floor(Math.random() * 800_000)).padStart(6, '0')}` }));
  }
  return leads;
}

describe('SMS budgets', () => {
  it('holds SMS beyond a number block budget without calling Twilio, and resumes them as the windows pass', async () => {
    const pumped = await leadsIn('393471', 4);
    const [honest] = await leadsIn('393291', 1);
    await enqueue([...pumped, honest!].map((lead) => lead.leadId));

    const statuses = await settled(pumped.map((lead) => lead.leadId));
    // Two per hour for the block: the other two are held, and Twilio never heard of them.
    expect(statuses.filter((status) => status === 'held')).toHaveLength(2);
    await waitFor(async () => (await statusOf(honest!.leadId)) === 'sent', { what: 'the honest SMS to be sent' });
    const held = pumped.filter((_, index) => statuses[index] === 'held');
    expect(sentTo()).toHaveLength(3);
    for (const lead of held) {
      expect(sentTo()).not.toContain(lead.telefono);
      expect(await timeline(lead.leadId)).toEqual(['held']);
    }
    const heldRow = await worker.db('sms_messages').where({ lead_id: held[0]!.leadId }).first();
    expect(heldRow.error_message).toBe('SMS budget reached: block 393471 per hour');

    // Nothing changes while the hour lasts: the sweep resumes nothing.
    expect((await sweep()).resumedSms).toBe(0);

    // An hour later the hourly budget allows again, but the day allows one more (3 a day):
    // the oldest held SMS is resumed and sent, the other stays held.
    clockOffsetMs = HOUR_MS + 60_000;
    expect((await sweep()).resumedSms).toBe(1);
    const first = [...held].sort((a, b) => a.leadId - b.leadId);
    await waitFor(async () => (await statusOf(first[0]!.leadId)) === 'sent', { what: 'the oldest held SMS to be sent' });
    expect(await statusOf(first[1]!.leadId)).toBe('held');
    expect(await timeline(first[0]!.leadId)).toEqual(['held', 'pending', 'sending', 'sent']);

    // A day later the last one goes too.
    clockOffsetMs = 25 * HOUR_MS;
    expect((await sweep()).resumedSms).toBe(1);
    await waitFor(async () => (await statusOf(first[1]!.leadId)) === 'sent', { what: 'the last held SMS to be sent' });

    // Every phone got exactly one SMS.
    expect(sentTo().sort()).toEqual([...pumped, honest!].map((lead) => lead.telefono).sort());
  });

  it('holds SMS beyond the global budget, and an admin release sends them even though it is still reached', async () => {
    // A fresh start: the clock goes back to the real time, without the SMS of the test
    // before or their counts.
    clockOffsetMs = 0;
    await worker.db('ebook_requests').delete();
    await worker.db('sms_budget_counts').delete();
    twilio.messages.length = 0;
    // Eight numbers of eight blocks: only the global budget (6 an hour) applies.
    const leads = [];
    for (let index = 0; index < 8; index += 1) leads.push(...(await leadsIn(`3933${index}1`, 1)));
    await enqueue(leads.map((lead) => lead.leadId));

    const statuses = await settled(leads.map((lead) => lead.leadId));
    expect(statuses.filter((status) => status === 'sent')).toHaveLength(6);
    expect(sentTo()).toHaveLength(6);
    expect((await sweep()).resumedSms).toBe(0);

    const released = await releaseHeldSms(worker.db, 'admin-release');
    expect(released).toHaveLength(2);
    await enqueue(released);
    await settled(leads.map((lead) => lead.leadId));
    await waitFor(async () => (await Promise.all(released.map(statusOf))).every((status) => status === 'sent'), {
      what: 'the released SMS to be sent',
    });
    expect(sentTo().sort()).toEqual(leads.map((lead) => lead.telefono).sort());
    expect(await timeline(released[0]!)).toEqual(['held', 'pending', 'sending', 'sent']);

    // Running the job or the sweep again sends nothing more.
    await enqueue(leads.map((lead) => lead.leadId));
    await sweep();
    await waitFor(async () => {
      const counts = await worker.deps.queues.queue('sms').getJobCounts('waiting', 'active', 'delayed');
      return (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0;
    });
    expect(sentTo()).toHaveLength(8);
  });

  it('lets no more SMS through than the budget when many jobs run at once (more than the connection pool)', async () => {
    clockOffsetMs = 0;
    await worker.db('ebook_requests').delete();
    await worker.db('sms_budget_counts').delete();
    twilio.messages.length = 0;
    const leads = await leadsIn('393481', 40);
    await enqueue(leads.map((lead) => lead.leadId));

    const statuses = await settled(leads.map((lead) => lead.leadId));
    expect(statuses.filter((status) => status === 'sent')).toHaveLength(2);
    expect(statuses.filter((status) => status === 'held')).toHaveLength(38);
    expect(sentTo()).toHaveLength(2);
    expect(await worker.db('sms_events').where({ status: 'retrying' })).toEqual([]);
  });
});
