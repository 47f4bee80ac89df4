import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_TRANSITIONS } from '@guida/shared/deliveries/delivery-statuses';
import { budgetAddressDigest, smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import { claimSms } from '@guida/shared/deliveries/sms-deliveries';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { adminMessages, smsBudgetMessages } from '@guida/shared/messages';
import { insertLead, type LeadFixture } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
let held: LeadFixture[];

/** The SMS of `lead` claimed (so counted against the budgets, as trusted: the whole budget applies) at `at`, then `status`. */
async function handedOver(lead: LeadFixture, at: Date, status: 'sent' | 'delivered') {
  const sms = await api.db('sms_messages').where({ lead_id: lead.leadId }).first<{ id: number }>('id');
  const budget = { limits: smsBudgetLimits(api.config), now: () => at };
  const claim = await claimSms(
    api.db,
    { sms_id: sms!.id, status: 'pending', telefono: lead.telefono, budget_exempt: false, network: null, budget_address: null, trusted: true },
    1,
    45_000,
    budget,
  );
  expect(claim).toBe('claimed');
  await api.db('sms_messages').where({ id: sms!.id }).update({ status, sent_at: at });
}

beforeAll(async () => {
  api = await createTestApi({ SMS_BUDGET_BLOCK_PER_HOUR: '2', SMS_BUDGET_GLOBAL_PER_DAY: '50' });
  admin = await signInAsAdmin(api);
  // Two SMS of block 393471 handed over in the last hour (its budget), two held behind them,
  // and one SMS of another block sent yesterday (the day window only).
  for (const telefono of ['+393471000001', '+393471000002']) {
    await handedOver(await insertLead(api.db, { telefono }), new Date(Date.now() - 5 * 60_000), 'sent');
  }
  await handedOver(await insertLead(api.db, { telefono: '+41791234567' }), new Date(Date.now() - 20 * 3600_000), 'delivered');
  held = [await insertLead(api.db, { telefono: '+393471000003' }), await insertLead(api.db, { telefono: '+393471000004' })];
  await api.db('sms_messages').whereIn('lead_id', held.map((lead) => lead.leadId)).update({ status: 'held' });
});
afterAll(async () => {
  await api.close();
});

describe('GET /api/admin/sms-budget', () => {
  it('shows every budget against its count, the tripped one and the held SMS', async () => {
    const response = await admin.agent.get('/api/admin/sms-budget');
    expect(response.status).toBe(200);
    expect(response.body.tripped).toBe(true);
    expect(response.body.held).toEqual({
      count: 2,
      trusted: 0,
      oldestAt: expect.any(String),
      byBlock: [{ block: '393471', count: 2 }],
      byNetwork: [],
    });
    const budget = (scope: string, key: string | null, window: string) =>
      response.body.budgets.find((entry: { scope: string; key: string | null; window: string }) =>
        entry.scope === scope && entry.key === key && entry.window === window);
    expect(budget('block', '393471', 'hour')).toEqual({
      scope: 'block',
      key: '393471',
      window: 'hour',
      untrusted: false,
      count: 2,
      limit: 2,
      tripped: true,
    });
    expect(budget('global', null, 'hour')).toMatchObject({ count: 2, limit: 1500, tripped: false });
    expect(budget('global', null, 'day')).toMatchObject({ count: 3, limit: 50, tripped: false });
    expect(budget('country', 'CH', 'hour')).toMatchObject({ count: 0 });
    expect(budget('country', 'CH', 'day')).toMatchObject({ count: 1 });
    expect(budget('country', 'IT', 'day')).toMatchObject({ count: 2 });
  });

  it('is for admins only', async () => {
    const response = await request(api.app).get('/api/admin/sms-budget');
    expect(response.status).toBe(401);
  });
});

describe('POST /api/admin/sms-budget/release', () => {
  it('refuses a write without the CSRF token', async () => {
    const response = await admin.agent.post('/api/admin/sms-budget/release');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: adminMessages.csrf });
    expect(await api.db('sms_messages').where({ status: 'held' }).count({ n: '*' }).first()).toEqual({ n: 2 });
  });

  it('puts every held SMS back on its way, exempt from the budgets, queued and audited', async () => {
    const response = await admin.agent.post('/api/admin/sms-budget/release').set('X-CSRF-Token', admin.csrfToken);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ released: 2, message: '2 SMS rilasciati: partiranno a breve.' });
    for (const lead of held) {
      const sms = await api.db('sms_messages').where({ lead_id: lead.leadId }).first();
      expect(sms).toMatchObject({ status: 'pending', budget_exempt: true });
      expect(await api.db('sms_events').where({ sms_message_id: sms.id }).pluck('provider_status')).toEqual(['admin-release']);
      expect(await api.deps.queues.queue('sms').getJob(sendGuideSmsJob.jobId({ leadId: lead.leadId }))).toBeTruthy();
    }
    const audit = await api.db('admin_audit_log').where({ action: 'release_held_sms' }).first();
    expect(audit.details).toEqual({ released: 2, trustedOnly: false });

    const overview = await admin.agent.get('/api/admin/sms-budget');
    expect(overview.body.held).toEqual({ count: 0, trusted: 0, oldestAt: null, byBlock: [], byNetwork: [] });

    const again = await admin.agent.post('/api/admin/sms-budget/release').set('X-CSRF-Token', admin.csrfToken);
    expect(again.body).toEqual({ released: 0, message: 'Nessun SMS trattenuto da rilasciare.' });
  });
});

/** Held SMS of leads from `client`, stored at `createdAt`: what a distributed attack leaves. */
async function heldFrom(
  telefono: string,
  client: { network: string; address: string; trusted?: boolean },
  createdAt = new Date(),
): Promise<LeadFixture> {
  const lead = await insertLead(api.db, { telefono, ip_address: client.network });
  await api.db('sms_messages')
    .where({ lead_id: lead.leadId })
    .update({
      status: SMS_TRANSITIONS.hold.to,
      trusted: client.trusted ?? false,
      budget_address: budgetAddressDigest(api.config.SESSION_SECRET)(client.address),
      created_at: createdAt,
    });
  return lead;
}
const smsOf = (lead: LeadFixture) =>
  api.db('sms_messages').where({ lead_id: lead.leadId }).first<{ id: number; status: string; error_message: string | null }>();

describe('held SMS discarded by block, network, address or time', () => {
  // 11:00 and 11:30 in Rome on 20 November (UTC+1).
  const eleven = new Date('2026-11-20T10:00:00Z');
  const halfPast = new Date('2026-11-20T10:30:00Z');
  let attack: LeadFixture[];
  let honest: LeadFixture;

  beforeAll(async () => {
    await api.db('sms_messages').where({ status: SMS_TRANSITIONS.hold.to }).update({ status: SMS_TRANSITIONS.discard.to });
    attack = [
      await heldFrom('+393880000001', { network: '203.0.113.0', address: '203.0.113.7' }, eleven),
      await heldFrom('+393880000002', { network: '203.0.113.0', address: '203.0.113.8' }, eleven),
      await heldFrom('+393890000003', { network: '2001:db8:4a7::', address: '2001:db8:4a7:1c::/64' }, halfPast),
    ];
    honest = await heldFrom('+393471234567', { network: '198.51.100.0', address: '198.51.100.20', trusted: true }, halfPast);
  });

  const held = (query: Record<string, string>) => admin.agent.get('/api/admin/sms-budget/held').query(query);
  const discard = (body: Record<string, unknown>) =>
    admin.agent.post('/api/admin/sms-budget/discard').set('X-CSRF-Token', admin.csrfToken).send(body);

  it('the overview counts the trusted held SMS and groups them by network', async () => {
    const response = await admin.agent.get('/api/admin/sms-budget');
    expect(response.body.held).toMatchObject({
      count: 4,
      trusted: 1,
      byNetwork: expect.arrayContaining([
        { network: '203.0.113.0', count: 2 },
        { network: '2001:db8:4a7::', count: 1 },
        { network: '198.51.100.0', count: 1 },
      ]),
    });
  });

  it('counts what a discard would take, for the confirmation, by each criterion', async () => {
    expect((await held({ network: '203.0.113.0/24' })).body).toEqual({ count: 2, trusted: 0 });
    // An address of the network means the network; an IPv6 one its /48.
    expect((await held({ network: '203.0.113.99' })).body).toEqual({ count: 2, trusted: 0 });
    expect((await held({ network: '2001:db8:4a7::/48' })).body).toEqual({ count: 1, trusted: 0 });
    // An address is counted by its digest; an IPv6 one by its /64.
    expect((await held({ address: '203.0.113.8' })).body).toEqual({ count: 1, trusted: 0 });
    expect((await held({ address: '2001:db8:4a7:1c::beef' })).body).toEqual({ count: 1, trusted: 0 });
    expect((await held({ block: '393880' })).body).toEqual({ count: 2, trusted: 0 });
    expect((await held({ block: '393890', network: '203.0.113.0' })).body).toEqual({ count: 0, trusted: 0 });
    // Minutes in the operator's time zone, both ends included.
    expect((await held({ from: '2026-11-20T11:00', to: '2026-11-20T11:00' })).body).toEqual({ count: 2, trusted: 0 });
    expect((await held({ from: '2026-11-20T11:30' })).body).toEqual({ count: 2, trusted: 1 });
    expect((await held({ from: '2026-11-20T11:30', untrustedOnly: 'true' })).body).toEqual({ count: 1, trusted: 0 });
    expect(await smsOf(honest)).toMatchObject({ status: SMS_TRANSITIONS.hold.to });
  });

  it('refuses criteria that name nothing or are not well formed, in Italian', async () => {
    const none = await held({});
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain(smsBudgetMessages.noCriteria);
    expect(JSON.stringify((await held({ network: '203.0.113.0/16' })).body)).toContain(smsBudgetMessages.invalidNetwork);
    expect(JSON.stringify((await held({ block: '39347' })).body)).toContain(smsBudgetMessages.invalidBlock);
    expect(JSON.stringify((await held({ from: '2026-11-20T12:00', to: '2026-11-20T11:00' })).body)).toContain(
      smsBudgetMessages.invalidRange,
    );
    const unguarded = await admin.agent.post('/api/admin/sms-budget/discard').send({ network: '203.0.113.0' });
    expect(unguarded.status).toBe(403);
    expect((await held({ network: '203.0.113.0' })).body).toEqual({ count: 2, trusted: 0 });
  });

  it('ends the matching held SMS as skipped, never sent, with a timeline entry, and audits it', async () => {
    const response = await discard({ network: '203.0.113.0/24', from: '2026-11-20T10:00' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ discarded: 2, message: smsBudgetMessages.discarded(2) });
    for (const lead of attack.slice(0, 2)) {
      const sms = await smsOf(lead);
      expect(sms).toMatchObject({ status: SMS_TRANSITIONS.discard.to });
      expect(sms!.error_message).toContain('discarded by an admin');
      expect(await api.db('sms_events').where({ sms_message_id: sms!.id }).pluck('provider_status')).toEqual(['admin-discard']);
    }
    // Other networks' held SMS, the trusted one among them, are untouched.
    expect(await smsOf(attack[2]!)).toMatchObject({ status: SMS_TRANSITIONS.hold.to });
    expect(await smsOf(honest)).toMatchObject({ status: SMS_TRANSITIONS.hold.to });
    const audit = await api.db('admin_audit_log').where({ action: 'discard_held_sms' }).first();
    expect(audit.details).toEqual({ criteria: { network: '203.0.113.0', from: '2026-11-20T10:00' }, discarded: 2 });

    // A discarded SMS is no longer held: a second discard takes nothing.
    expect((await discard({ network: '203.0.113.0' })).body).toEqual({ discarded: 0, message: smsBudgetMessages.discarded(0) });
  });

  it('keeps the trusted SMS when asked to take only the untrusted ones', async () => {
    const response = await discard({ from: '2026-11-20T11:30', untrustedOnly: true });
    expect(response.body.discarded).toBe(1);
    expect(await smsOf(attack[2]!)).toMatchObject({ status: SMS_TRANSITIONS.discard.to });
    expect(await smsOf(honest)).toMatchObject({ status: SMS_TRANSITIONS.hold.to });
  });
});
