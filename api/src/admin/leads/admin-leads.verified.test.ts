import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadDetailSchema, leadListSchema } from '@guida/shared/schemas/admin';
import { insertLead, type LeadFixture } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { leadVerification, verificationSetup } from '../../testing/lead-verification';
import { createTestApi, type TestApi } from '../../testing/test-api';

/** Verified leads (decision 059) in the leads table, its filters, the detail and the CSV. */

const setup = verificationSetup();
let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
let reachable: LeadFixture;
let engaged: LeadFixture;
let both: LeadFixture;
let neither: LeadFixture;

beforeAll(async () => {
  api = await createTestApi(setup.env);
  admin = await signInAsAdmin(api);
  const verify = leadVerification(api);
  // Oldest first: the list shows the newest first.
  neither = await insertLead(api.db, { nome: '=Nessuno', created_at: '2026-12-01T10:00:00+01:00' });
  reachable = await insertLead(api.db, { created_at: '2026-12-02T10:00:00+01:00' });
  engaged = await insertLead(api.db, { created_at: '2026-12-03T10:00:00+01:00' });
  both = await insertLead(api.db, { created_at: '2026-12-04T10:00:00+01:00' });
  await verify.smsDelivered(reachable.leadId);
  await verify.guideDownloaded(engaged.leadId);
  await verify.smsDelivered(both.leadId);
  await verify.guideDownloaded(both.leadId);
});
afterAll(async () => {
  await api.close();
  setup.remove();
});

const ids = async (query: Record<string, string>) => {
  const response = await admin.agent.get('/api/admin/leads').query(query);
  expect(response.status).toBe(200);
  return leadListSchema.parse(response.body).items.map((lead) => lead.id);
};

const stored = (lead: LeadFixture) => api.db('ebook_requests').where({ id: lead.leadId }).first();

describe('verified leads in the leads table', () => {
  it('filters by verified, SMS delivered and guide opened', async () => {
    expect(await ids({ verified: 'si' })).toEqual([both.leadId, engaged.leadId, reachable.leadId]);
    expect(await ids({ verified: 'no' })).toEqual([neither.leadId]);
    expect(await ids({ reachable: 'si' })).toEqual([both.leadId, reachable.leadId]);
    expect(await ids({ reachable: 'no' })).toEqual([engaged.leadId, neither.leadId]);
    expect(await ids({ engaged: 'si' })).toEqual([both.leadId, engaged.leadId]);
    expect(await ids({ engaged: 'no', reachable: 'si' })).toEqual([reachable.leadId]);
    const refused = await admin.agent.get('/api/admin/leads').query({ verified: 'forse' });
    expect(refused.status).toBe(400);
  });

  it('gives each lead its times in the list and the detail', async () => {
    const list = leadListSchema.parse((await admin.agent.get('/api/admin/leads')).body);
    const item = list.items.find((lead) => lead.id === both.leadId)!;
    const row = await stored(both);
    expect(item).toMatchObject({ reachableAt: row.reachable_at.toISOString(), engagedAt: row.engaged_at.toISOString() });
    expect(list.items.find((lead) => lead.id === neither.leadId)).toMatchObject({ reachableAt: null, engagedAt: null });

    const detail = leadDetailSchema.parse((await admin.agent.get(`/api/admin/leads/${engaged.leadId}`)).body);
    expect(detail.lead).toMatchObject({ reachableAt: null, engagedAt: (await stored(engaged)).engaged_at.toISOString() });
    // Its CRM deliveries show the event the download created.
    expect(detail.crm.map((delivery) => delivery.event)).toEqual(['lead.created', 'lead.guide_opened']);
  });

  it('exports the times and whether each lead is verified, filtered like the table', async () => {
    const csv = await admin.agent.get('/api/admin/leads/export.csv').query({ from: '2026-12-01', to: '2026-12-31' });
    const [header, ...lines] = csv.text.slice(1).split('\r\n').filter(Boolean);
    const columns = header!.split(';');
    expect(columns.slice(-3)).toEqual(['sms_consegnato_il', 'guida_aperta_il', 'verificato']);
    const cells = (id: number) => {
      const line = lines.find((text) => text.startsWith(`${id};`))!.split(';');
      return Object.fromEntries(['sms_consegnato_il', 'guida_aperta_il', 'verificato'].map((name) => [name, line[columns.indexOf(name)]]));
    };
    const italianTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
    expect(cells(both.leadId)).toEqual({ sms_consegnato_il: expect.stringMatching(italianTime), guida_aperta_il: expect.stringMatching(italianTime), verificato: 'sì' });
    expect(cells(reachable.leadId)).toMatchObject({ guida_aperta_il: '', verificato: 'sì' });
    expect(cells(engaged.leadId)).toMatchObject({ sms_consegnato_il: '', verificato: 'sì' });
    expect(cells(neither.leadId)).toEqual({ sms_consegnato_il: '', guida_aperta_il: '', verificato: 'no' });
    // The formula defence holds in the same rows.
    expect(lines.find((text) => text.startsWith(`${neither.leadId};`))).toContain(";'=Nessuno;");

    const unverified = await admin.agent.get('/api/admin/leads/export.csv').query({ verified: 'no', from: '2026-12-01' });
    expect(unverified.text.split('\r\n').filter(Boolean).slice(1).map((line) => Number(line.split(';')[0]))).toEqual([neither.leadId]);
  });
});
