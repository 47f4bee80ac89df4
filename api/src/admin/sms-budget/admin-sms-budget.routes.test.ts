import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import { claimSms } from '@guida/shared/deliveries/sms-deliveries';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { adminMessages } from '@guida/shared/messages';
import { insertLead, type LeadFixture } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
let held: LeadFixture[];

/** The SMS of `lead` claimed (so counted against the budgets) at `at`, then `status`. */
async function handedOver(lead: LeadFixture, at: Date, status: 'sent' | 'delivered') {
  const sms = await api.db('sms_messages').where({ lead_id: lead.leadId }).first<{ id: number }>('id');
  const budget = { limits: smsBudgetLimits(api.config), now: () => at };
  const claim = await claimSms(api.db, { sms_id: sms!.id, status: 'pending', telefono: lead.telefono, budget_exempt: false }, 1, 45_000, budget);
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
      oldestAt: expect.any(String),
      byBlock: [{ block: '393471', count: 2 }],
    });
    const budget = (scope: string, key: string | null, window: string) =>
      response.body.budgets.find((entry: { scope: string; key: string | null; window: string }) =>
        entry.scope === scope && entry.key === key && entry.window === window);
    expect(budget('block', '393471', 'hour')).toEqual({ scope: 'block', key: '393471', window: 'hour', count: 2, limit: 2, tripped: true });
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
    expect(audit.details).toEqual({ released: 2 });

    const overview = await admin.agent.get('/api/admin/sms-budget');
    expect(overview.body.held).toEqual({ count: 0, oldestAt: null, byBlock: [] });

    const again = await admin.agent.post('/api/admin/sms-budget/release').set('X-CSRF-Token', admin.csrfToken);
    expect(again.body).toEqual({ released: 0, message: 'Nessun SMS trattenuto da rilasciare.' });
  });
});
