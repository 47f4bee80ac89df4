import { afterEach, describe, expect, it } from 'vitest';
import { SMS_TRANSITIONS } from '@guida/shared/deliveries/delivery-statuses';
import { discardHeldSms } from '@guida/shared/deliveries/sms-deliveries';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { insertLead, type LeadFixture } from '@guida/testing/lead-fixture';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';

/**
 * The budgets of decision 052 against the real worker, Postgres, Redis and the real Twilio
 * client talking to the fake Twilio: per client network and address, the share of the
 * budgets kept for trusted leads, trusted SMS resumed first, and the admin's discard.
 * Each test starts a worker with the budgets it needs (the rest are the defaults).
 */
let twilio: FakeTwilio | null = null;
let worker: TestWorker | null = null;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);
const HOUR_MS = 3600_000;
/** The statuses the tests wait for, as the delivery module names them. */
const SENT = SMS_TRANSITIONS.recordSent.to;
const HELD = SMS_TRANSITIONS.hold.to;
const DISCARDED = SMS_TRANSITIONS.discard.to;

afterEach(async () => {
  await worker?.close();
  await twilio?.close();
  worker = null;
  twilio = null;
  clockOffsetMs = 0;
});

async function start(budgets: Record<string, string>) {
  twilio = await startFakeTwilio();
  worker = await createTestWorker(
    {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: 'GuidaFin',
      TWILIO_API_BASE_URL: twilio.url,
      ...budgets,
    },
    { now },
  );
  return { worker, twilio };
}

let phone = 0;
interface Client {
  /** The network as the lead stores it (IPv4 /24, IPv6 /48). */
  network: string;
  /** The address digest the API computed; a new one per lead when left out. */
  address?: string;
  trusted?: boolean;
}

/** A lead from `client`, its number in a block of its own (so only the client's budgets apply). */
async function leadFrom(client: Client): Promise<LeadFixture> {
  phone += 1;
  const db = worker!.db;
  const lead = await insertLead(db, { telefono: `+3938${String(10 + phone).padStart(2, '0')}${String(100_000 + phone).slice(-6)}`, ip_address: client.network });
  await db('sms_messages')
    .where({ lead_id: lead.leadId })
    .update({ trusted: client.trusted ?? false, budget_address: client.address ?? `a${String(phone).padStart(15, '0')}` });
  return lead;
}

const statusOf = async (lead: LeadFixture) => {
  const sms = await worker!.db('sms_messages').where({ lead_id: lead.leadId }).first<{ status: string; error_message: string | null }>('status', 'error_message');
  return sms!;
};
const enqueue = (leads: LeadFixture[]) => worker!.deps.queues.enqueueAgain(sendGuideSmsJob, leads.map(({ leadId }) => ({ leadId })));
/** Sends the leads' jobs one after the other, waiting for each to end sent or held: their statuses. */
async function sendInTurn(leads: LeadFixture[]) {
  const statuses: string[] = [];
  for (const lead of leads) {
    await enqueue([lead]);
    statuses.push(
      await waitFor(
        async () => {
          const { status } = await statusOf(lead);
          return (status === SENT || status === HELD) && status;
        },
        { what: `the SMS of lead ${lead.leadId} sent or held` },
      ),
    );
  }
  return statuses;
}
const sentTo = () => twilio!.messages.map((message) => message.to);
const sweep = () => worker!.sweeper({ now })();

describe('SMS budgets per client network and address', () => {
  it('holds SMS beyond an IPv4 /24 or IPv6 /48 budget while another network sends', async () => {
    await start({ SMS_BUDGET_NETWORK_PER_HOUR: '2' });
    const ipv4 = [1, 2, 3].map(() => ({ network: '203.0.113.0', trusted: true }));
    const ipv6 = [1, 2, 3].map(() => ({ network: '2001:db8:4a7::', trusted: true }));
    const flood = [];
    for (const client of [...ipv4, ...ipv6]) flood.push(await leadFrom(client));
    const other = await leadFrom({ network: '198.51.100.0', trusted: true });

    expect(await sendInTurn([...flood, other])).toEqual([SENT, SENT, HELD, SENT, SENT, HELD, SENT]);
    expect((await statusOf(flood[2]!)).error_message).toBe('SMS budget reached: network 203.0.113.0 per hour');
    expect((await statusOf(flood[5]!)).error_message).toBe('SMS budget reached: network 2001:db8:4a7:: per hour');
    expect(sentTo()).toEqual([flood[0], flood[1], flood[3], flood[4], other].map((lead) => lead!.telefono));
  });

  it('holds SMS beyond an address budget, whatever the network allows', async () => {
    await start({ SMS_BUDGET_ADDRESS_PER_HOUR: '1' });
    const address = 'feedfacecafebeef';
    const leads = [await leadFrom({ network: '203.0.113.0', address }), await leadFrom({ network: '203.0.113.0', address })];
    const neighbour = await leadFrom({ network: '203.0.113.0' });

    expect(await sendInTurn([...leads, neighbour])).toEqual([SENT, HELD, SENT]);
    expect((await statusOf(leads[1]!)).error_message).toBe(`SMS budget reached: address ${address} per hour`);
  });
});

describe('the share of the budgets kept for trusted leads', () => {
  it('lets a trusted lead through when the untrusted part of the budget is full, up to the whole budget', async () => {
    // 4 an hour in total; with the default share (50 %) untrusted SMS may use 2.
    await start({ SMS_BUDGET_GLOBAL_PER_HOUR: '4' });
    let network = 0;
    const from = (trusted: boolean) => leadFrom({ network: `198.51.${(network += 1)}.0`, trusted });
    const untrusted = [await from(false), await from(false), await from(false)];
    const trusted = [await from(true), await from(true), await from(true)];

    expect(await sendInTurn(untrusted)).toEqual([SENT, SENT, HELD]);
    expect((await statusOf(untrusted[2]!)).error_message).toBe('SMS budget reached: untrusted share of global per hour');
    // The reserved part is the trusted leads', then the budget is full for everyone.
    expect(await sendInTurn(trusted)).toEqual([SENT, SENT, HELD]);
    expect((await statusOf(trusted[2]!)).error_message).toBe('SMS budget reached: global per hour');
    expect(sentTo()).toHaveLength(4);
  });

  it('resumes held trusted SMS before older untrusted ones', async () => {
    // Two an hour, three a day, no share: only the order of the resume is looked at.
    await start({ SMS_BUDGET_GLOBAL_PER_HOUR: '2', SMS_BUDGET_GLOBAL_PER_DAY: '3', SMS_BUDGET_TRUSTED_SHARE_PERCENT: '0' });
    let network = 0;
    const from = (trusted: boolean) => leadFrom({ network: `198.51.${(network += 1)}.0`, trusted });
    const first = [await from(true), await from(true)];
    const olderUntrusted = [await from(false), await from(false)];
    const newerTrusted = await from(true);
    expect(await sendInTurn([...first, ...olderUntrusted, newerTrusted])).toEqual([SENT, SENT, HELD, HELD, HELD]);

    // An hour later the day allows one more: the trusted one goes, though the others waited longer.
    clockOffsetMs = HOUR_MS + 60_000;
    expect((await sweep()).resumedSms).toBe(1);
    await waitFor(async () => (await statusOf(newerTrusted)).status === SENT, { what: 'the trusted SMS to be resumed and sent' });
    expect((await Promise.all(olderUntrusted.map(statusOf))).map((sms) => sms.status)).toEqual([HELD, HELD]);
  });
});

describe("the admin's discard", () => {
  it('ends the matching held SMS as skipped with the reason; neither their job nor the sweep sends them', async () => {
    await start({ SMS_BUDGET_NETWORK_PER_HOUR: '1' });
    const flood = [await leadFrom({ network: '203.0.113.0' }), await leadFrom({ network: '203.0.113.0' }), await leadFrom({ network: '203.0.113.0' })];
    const honest = [await leadFrom({ network: '198.51.100.0' }), await leadFrom({ network: '198.51.100.0' })];
    expect(await sendInTurn([...flood, ...honest])).toEqual([SENT, HELD, HELD, SENT, HELD]);

    expect(await discardHeldSms(worker!.db, { network: '203.0.113.0' }, 'discarded by an admin: {"network":"203.0.113.0"}')).toBe(2);
    for (const lead of flood.slice(1)) {
      expect(await statusOf(lead)).toEqual({ status: DISCARDED, error_message: 'discarded by an admin: {"network":"203.0.113.0"}' });
      const sms = await worker!.db('sms_messages').where({ lead_id: lead.leadId }).first<{ id: number }>('id');
      expect(await worker!.db('sms_events').where({ sms_message_id: sms!.id }).orderBy('id').select('status', 'provider_status')).toEqual([
        { status: HELD, provider_status: null },
        { status: DISCARDED, provider_status: 'admin-discard' },
      ]);
    }
    // The other network's held SMS is untouched.
    expect((await statusOf(honest[1]!)).status).toBe(HELD);
    // Past SMS_HELD_EMAIL_AFTER_MINUTES only the SMS still held has its link sent by email.
    const leadIds = [...flood, ...honest].map(({ leadId }) => leadId);
    await worker!.db('sms_messages').whereIn('lead_id', leadIds).update({ updated_at: worker!.db.raw(`now() - interval '1 day'`) });
    expect((await sweep()).heldLinksEmailed).toBe(1);
    expect(await worker!.db('email_messages').whereIn('lead_id', leadIds).pluck('lead_id')).toEqual([honest[1]!.leadId]);

    // A day later every window has room: their jobs and the sweep still send nothing of them.
    clockOffsetMs = 25 * HOUR_MS;
    await enqueue(flood);
    expect((await sweep()).resumedSms).toBe(1);
    await waitFor(async () => (await statusOf(honest[1]!)).status === SENT, { what: "the other network's SMS to be resumed" });
    await waitFor(async () => {
      const counts = await worker!.deps.queues.queue('sms').getJobCounts('waiting', 'active', 'delayed');
      return (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0;
    });
    expect(sentTo()).toEqual([flood[0]!.telefono, honest[0]!.telefono, honest[1]!.telefono]);
  });
});
