import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyTouch } from '@guida/shared/attribution-rules';
import { marketingWithdrawalMessages } from '@guida/shared/marketing-withdrawal';
import { adminMessages } from '@guida/shared/messages';
import { leadDetailSchema, leadListSchema } from '@guida/shared/schemas/admin';
import { CSV_BOM } from '@guida/shared/server/csv';
import { contactHashesOf } from '@guida/shared/server/marketing-suppression';
import { insertLead, type LeadFixture } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
let anna: LeadFixture;
let bruno: LeadFixture;
let carla: LeadFixture;

beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
  // Three leads with known attributes; times are in Italy's winter time (UTC+1).
  anna = await insertLead(api.db, {
    nome: 'Anna',
    cognome: 'Verdi',
    email: 'anna.verdi@example.it',
    telefono: '+393471112233',
    created_at: '2026-11-02T09:00:00+01:00',
    // The page of the A/B experiment (decision 041): Anna saw its variant b.
    landing_path: '/trading-automatico',
    hero_variant: 'b',
    source: 'landing-page',
    ebook_type: 'financial-education',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'autunno',
    utm_term: 'guida risparmio',
    gclid: 'Cj0KCQiA-anna',
    referrer_host: 'www.google.com',
    first_utm_source: 'newsletter',
    first_utm_medium: 'email',
    first_referrer_host: 'mail.example.it',
    // Click ids come only with the ad consent granted (decision 049).
    ad_user_data: 'granted',
    ad_personalization: 'granted',
  });
  bruno = await insertLead(api.db, {
    nome: 'Bruno',
    cognome: 'Neri',
    email: 'bruno@example.ch',
    telefono: '+41791234567',
    created_at: '2026-11-05T23:30:00+01:00',
    landing_path: '/educazione-investimenti',
    source: 'landing-page',
    ebook_type: 'investment-education',
    utm_source: 'facebook',
    utm_content: 'video-b',
    first_fbclid: 'IwAR0bruno',
    ad_user_data: 'granted',
    ad_personalization: 'granted',
    marketing_consent: true,
    marketing_consent_version: '1.0',
  });
  carla = await insertLead(api.db, {
    nome: '=HYPERLINK("http://x.example","clic")',
    cognome: '+Rossi; "la" terza',
    email: '@carla@example.it',
    telefono: '+393479998877',
    created_at: '2026-11-06T00:30:00+01:00',
    landing_path: '/trading-old',
    source: 'direct',
    ebook_type: 'general',
  });
  await api.db('sms_messages').where({ lead_id: anna.leadId }).update({ status: 'delivered' });
  await api.db('sms_messages').where({ lead_id: bruno.leadId }).update({ status: 'failed', error_code: '30003' });
  await api.db('crm_deliveries').where({ lead_id: anna.leadId }).update({ status: 'delivered', response_status: 200 });
});
afterAll(async () => {
  await api.close();
});

const list = async (query: Record<string, string | number> = {}) => {
  const response = await admin.agent.get('/api/admin/leads').query(query);
  expect(response.status).toBe(200);
  return response.body as { total: number; page: number; pageSize: number; items: { id: number }[] };
};
const ids = async (query: Record<string, string | number>) => (await list(query)).items.map((lead) => lead.id);

describe('GET /api/admin/leads', () => {
  it('lists the newest first with their SMS and CRM status, paginated on the server', async () => {
    const all = await list();
    expect(all.total).toBe(3);
    expect(all.items.map((lead) => lead.id)).toEqual([carla.leadId, bruno.leadId, anna.leadId]);
    expect(all.items[2]).toEqual({
      id: anna.leadId,
      createdAt: '2026-11-02T08:00:00.000Z',
      nome: 'Anna',
      cognome: 'Verdi',
      email: 'anna.verdi@example.it',
      telefono: '+393471112233',
      country: 'IT',
      ebookType: 'financial-education',
      source: 'landing-page',
      landingPath: '/trading-automatico',
      heroVariant: 'b',
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'autunno',
      utmTerm: 'guida risparmio',
      utmContent: null,
      gclid: 'Cj0KCQiA-anna',
      gbraid: null,
      wbraid: null,
      fbclid: null,
      msclkid: null,
      ttclid: null,
      referrerHost: 'www.google.com',
      firstTouch: {
        ...emptyTouch(),
        utmSource: 'newsletter',
        utmMedium: 'email',
        referrerHost: 'mail.example.it',
      },
      smsStatus: 'delivered',
      crmStatus: 'delivered',
      // Set by the provider's report, not by the status alone (decision 059): none came.
      reachableAt: null,
      engagedAt: null,
      marketingSuppressedAt: null,
    });
    const second = await list({ page: 2, pageSize: 2 });
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((lead) => lead.id)).toEqual([anna.leadId]);
  });

  it('sorts by date, newest or oldest first', async () => {
    expect(await ids({ order: 'asc' })).toEqual([anna.leadId, bruno.leadId, carla.leadId]);
    expect(await ids({ order: 'desc' })).toEqual([carla.leadId, bruno.leadId, anna.leadId]);
    const response = await admin.agent.get('/api/admin/leads').query({ order: 'random()' });
    expect(response.status).toBe(400);
    expect(response.body.errors.order).toBe(adminMessages.invalidFilter);
  });

  it('filters by each criterion', async () => {
    expect(await ids({ q: 'verdi' })).toEqual([anna.leadId]);
    expect(await ids({ q: 'anna verdi' })).toEqual([anna.leadId]);
    expect(await ids({ q: 'BRUNO@' })).toEqual([bruno.leadId]);
    expect(await ids({ q: '347 999' })).toEqual([carla.leadId]);
    expect(await ids({ q: String(bruno.leadId) })).toContain(bruno.leadId);
    expect(await ids({ q: '%' })).toEqual([]);
    // Days are Italian days: 23:30 on the 5th is the 5th, 00:30 on the 6th is the 6th.
    expect(await ids({ from: '2026-11-05', to: '2026-11-05' })).toEqual([bruno.leadId]);
    expect(await ids({ from: '2026-11-06' })).toEqual([carla.leadId]);
    expect(await ids({ to: '2026-11-04' })).toEqual([anna.leadId]);
    expect(await ids({ landingPath: '/educazione-investimenti' })).toEqual([bruno.leadId]);
    expect(await ids({ source: 'direct' })).toEqual([carla.leadId]);
    expect(await ids({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno' })).toEqual([anna.leadId]);
    expect(await ids({ utmTerm: 'guida risparmio' })).toEqual([anna.leadId]);
    expect(await ids({ utmContent: 'video-b' })).toEqual([bruno.leadId]);
    expect(await ids({ referrerHost: 'www.google.com' })).toEqual([anna.leadId]);
    // A click id of the last touch (Anna) or of the first (Bruno).
    expect(await ids({ clickId: 'si' })).toEqual([bruno.leadId, anna.leadId]);
    expect(await ids({ clickId: 'no' })).toEqual([carla.leadId]);
    expect(await ids({ ebookType: 'investment-education' })).toEqual([bruno.leadId]);
    expect(await ids({ country: 'CH' })).toEqual([bruno.leadId]);
    expect(await ids({ smsStatus: 'failed' })).toEqual([bruno.leadId]);
    expect(await ids({ smsStatus: 'pending', country: 'IT' })).toEqual([carla.leadId]);
  });

  it('refuses invalid filters with Italian messages', async () => {
    const response = await admin.agent.get('/api/admin/leads').query({ from: 'ieri', pageSize: 1000 });
    expect(response.status).toBe(400);
    expect(response.body.errors.from).toBe(adminMessages.invalidDay);
    expect(response.body.errors.pageSize).toBeDefined();
  });
});

describe('GET /api/admin/leads/:id', () => {
  it('shows the lead with its SMS timeline, CRM deliveries, emails and download link', async () => {
    const smsId = (await api.db('sms_messages').where({ lead_id: bruno.leadId }).first()).id;
    await api.db('sms_events').insert([
      { sms_message_id: smsId, status: 'retrying', error_code: '30003', error_message: 'Unreachable', occurred_at: '2026-11-05T23:30:05+01:00' },
      { sms_message_id: smsId, status: 'failed', error_code: '30003', error_message: 'Unreachable', occurred_at: '2026-11-05T23:31:00+01:00' },
    ]);
    await api.db('email_messages').insert({ lead_id: bruno.leadId, kind: 'guide-link', status: 'delivered', attempts: 1 });
    const response = await admin.agent.get(`/api/admin/leads/${bruno.leadId}`);
    expect(response.status).toBe(200);
    expect(response.body.lead).toMatchObject({
      id: bruno.leadId,
      nome: 'Bruno',
      country: 'CH',
      gdprConsent: true,
      consentVersion: '1.0',
      marketingConsent: true,
      marketingConsentVersion: '1.0',
    });
    const refused = await admin.agent.get(`/api/admin/leads/${anna.leadId}`);
    expect(refused.body.lead).toMatchObject({ gdprConsent: true, marketingConsent: false, marketingConsentVersion: null });
    // The ad consent recorded when each was sent (decision 049): Carla's visitor accepted no marketing cookie.
    expect(response.body.lead).toMatchObject({ adUserData: 'granted', adPersonalization: 'granted' });
    const denied = await admin.agent.get(`/api/admin/leads/${carla.leadId}`);
    expect(denied.body.lead).toMatchObject({ adUserData: 'denied', adPersonalization: 'denied' });
    expect(() => leadDetailSchema.parse(denied.body)).not.toThrow();
    expect(response.body.sms).toMatchObject({ status: 'failed', errorCode: '30003' });
    expect(response.body.sms.timeline.map((event: { status: string }) => event.status)).toEqual(['retrying', 'failed']);
    expect(response.body.sms.timeline[1]).toEqual({
      status: 'failed',
      at: '2026-11-05T22:31:00.000Z',
      providerStatus: null,
      errorCode: '30003',
      errorMessage: 'Unreachable',
    });
    expect(response.body.crm).toEqual([expect.objectContaining({ event: 'lead.created', status: 'pending', attempts: 0 })]);
    expect(response.body.emails).toEqual([{ kind: 'guide-link', status: 'delivered', attempts: 1, sentAt: null }]);
    expect(response.body.download).toMatchObject({ downloadCount: 0, firstDownloadedAt: null });
    expect(response.body.repeatOf).toBeNull();
  });

  it('names the first lead of a repeat within 24 hours', async () => {
    const [repeat] = await api.db('ebook_requests')
      .insert({ nome: 'Bruno', cognome: 'Verdi', email: 'bruno.bis@example.it', telefono: bruno.telefono, repeat_of: bruno.leadId })
      .returning('id');
    const response = await admin.agent.get(`/api/admin/leads/${repeat.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ repeatOf: bruno.leadId, sms: null, download: null });
    await api.db('ebook_requests').where({ id: repeat.id }).delete();
  });

  it('answers 404 in Italian for an unknown or malformed id', async () => {
    for (const id of ['99999999', 'abc', '-1']) {
      const response = await admin.agent.get(`/api/admin/leads/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.message).toBe(adminMessages.leadNotFound);
    }
  });
});

describe('GET /api/admin/leads/export.csv', () => {
  it('streams the filtered leads as CSV, defusing spreadsheet formulas, and audits the export', async () => {
    const response = await admin.agent.get('/api/admin/leads/export.csv').buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => done(null, text));
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="lead-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = response.body as string;
    expect(text.startsWith(CSV_BOM)).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'id;data (ora di Roma);nome;cognome;email;telefono;paese;guida;fonte;pagina;utm_source;utm_medium;utm_campaign;consenso_privacy;consenso_marketing;versione_consenso;versione_consenso_marketing;stato_sms;stato_crm;' +
        'utm_term;utm_content;gclid;gbraid;wbraid;fbclid;msclkid;ttclid;referrer_host;' +
        'first_utm_source;first_utm_medium;first_utm_campaign;first_utm_term;first_utm_content;first_gclid;first_gbraid;first_wbraid;first_fbclid;first_msclkid;first_ttclid;first_referrer_host;' +
        'variante_hero;consenso_marketing_revocato_il;marketing_soppresso_dal;ad_user_data;ad_personalization;' +
        'sms_consegnato_il;guida_aperta_il;verificato',
    );
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    // Carla's row: formulas get a leading apostrophe; quotes and separators are quoted.
    expect(lines[1]).toBe(
      // Times in Italian time: 00:30 on the 6th, not 23:30 UTC on the 5th.
      `${carla.leadId};2026-11-06 00:30:00;"'=HYPERLINK(""http://x.example"",""clic"")";"'+Rossi; ""la"" terza";'@carla@example.it;'+393479998877;IT;general;direct;/trading-old;;;;sì;no;1.0;;pending;pending${';'.repeat(24)};denied;denied;;;no`,
    );
    expect(lines[2]).toMatch(new RegExp(`^${bruno.leadId};.*;bruno@example\\.ch;.*;sì;sì;1\\.0;1\\.0;failed;pending;;video-b;;;;;;;;;;;;;;;;IwAR0bruno;;;;;;;granted;granted;;;no$`));
    expect(lines[3]).toContain(`${anna.leadId};2026-11-02 09:00:00;Anna;Verdi;anna.verdi@example.it;'+393471112233;IT`);
    expect(lines[3]).toMatch(
      /;delivered;delivered;guida risparmio;;Cj0KCQiA-anna;;;;;;www\.google\.com;newsletter;email;;;;;;;;;;mail\.example\.it;b;;;granted;granted;;;no$/,
    );

    const filtered = await admin.agent.get('/api/admin/leads/export.csv').query({ country: 'CH' });
    expect(filtered.text.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(filtered.text).toContain('bruno@example.ch');

    const searched = await admin.agent.get('/api/admin/leads/export.csv').query({ q: 'bruno@example.ch', from: '2026-11-01' });
    expect(searched.text).toContain('bruno@example.ch');

    // Which filters were used, never what was searched for.
    const audits = await api.db('admin_audit_log').where({ user_id: admin.user.id, action: 'export_leads_csv' }).orderBy('id');
    expect(audits.map((entry) => entry.details)).toEqual([
      { filters: [] },
      { filters: ['country'] },
      { filters: ['from', 'q'] },
    ]);
    expect(JSON.stringify(audits)).not.toContain('bruno');
  });

  it('exports more leads than one page of the stream', async () => {
    const many = await createTestApi();
    try {
      const { agent } = await signInAsAdmin(many);
      await many.db('ebook_requests').insert(
        Array.from({ length: 2500 }, (_, index) => ({
          nome: `Nome${index}`,
          cognome: 'Prova',
          email: `prova${index}@example.it`,
          telefono: `+3934700${String(index).padStart(5, '0')}`,
        })),
      );
      const response = await agent.get('/api/admin/leads/export.csv');
      const rows = response.text.split('\r\n').filter(Boolean);
      expect(rows).toHaveLength(2501);
      expect(new Set(rows.slice(1).map((row) => row.split(';')[0])).size).toBe(2500);
    } finally {
      await many.close();
    }
  });
});

describe('sending again', () => {
  it('resends a failed SMS: row back to pending with a timeline entry, a new job, an audit entry', async () => {
    await api.db('download_tokens').where({ lead_id: bruno.leadId }).update({ expires_at: api.db.raw(`now() - interval '1 day'`) });
    const response = await admin.agent.post(`/api/admin/leads/${bruno.leadId}/resend-sms`).set('X-CSRF-Token', admin.csrfToken);
    expect(response.status).toBe(202);
    expect(response.body.message).toBe(adminMessages.smsRequeued);

    const sms = await api.db('sms_messages').where({ lead_id: bruno.leadId }).first();
    expect(sms).toMatchObject({ status: 'pending', error_code: null });
    const last = await api.db('sms_events').where({ sms_message_id: sms.id }).orderBy('id', 'desc').first();
    expect(last).toMatchObject({ status: 'pending', provider_status: 'admin-resend' });
    const token = await api.db('download_tokens').where({ lead_id: bruno.leadId }).first();
    expect(token.expires_at.getTime()).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    const waiting = await api.deps.queues.queue('sms').getWaiting();
    expect(waiting.map((job) => job.id)).toContain(`lead-${bruno.leadId}`);
    expect(await api.db('admin_audit_log').where({ action: 'resend_sms', target_id: String(bruno.leadId) })).toHaveLength(1);

    const again = await admin.agent.post(`/api/admin/leads/${bruno.leadId}/resend-sms`).set('X-CSRF-Token', admin.csrfToken);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(adminMessages.smsInProgress);
  });

  it('redelivers to the CRM only when the delivery is not already on its way', async () => {
    const queued = await admin.agent.post(`/api/admin/leads/${carla.leadId}/redeliver-crm`).set('X-CSRF-Token', admin.csrfToken);
    expect(queued.status).toBe(409);
    expect(queued.body.message).toBe(adminMessages.crmInProgress);

    const response = await admin.agent.post(`/api/admin/leads/${anna.leadId}/redeliver-crm`).set('X-CSRF-Token', admin.csrfToken);
    expect(response.status).toBe(202);
    expect(response.body.message).toBe(adminMessages.crmRequeued);
    expect(await api.db('crm_deliveries').where({ lead_id: anna.leadId }).first()).toMatchObject({ status: 'pending' });
    const waiting = await api.deps.queues.queue('crm').getWaiting();
    expect(waiting.map((job) => job.id)).toContain(`lead-${anna.leadId}`);
  });

  it('does not reopen an SMS or a CRM delivery a worker is sending right now', async () => {
    await api.db('sms_messages').where({ lead_id: carla.leadId }).update({ status: 'sending' });
    await api.db('crm_deliveries').where({ lead_id: carla.leadId }).update({ status: 'sending' });

    const sms = await admin.agent.post(`/api/admin/leads/${carla.leadId}/resend-sms`).set('X-CSRF-Token', admin.csrfToken);
    expect(sms.status).toBe(409);
    expect(sms.body.message).toBe(adminMessages.smsInProgress);
    const crm = await admin.agent.post(`/api/admin/leads/${carla.leadId}/redeliver-crm`).set('X-CSRF-Token', admin.csrfToken);
    expect(crm.status).toBe(409);
    expect(crm.body.message).toBe(adminMessages.crmInProgress);
    expect(await api.db('sms_messages').where({ lead_id: carla.leadId }).first()).toMatchObject({ status: 'sending' });
    expect(await api.db('crm_deliveries').where({ lead_id: carla.leadId }).first()).toMatchObject({ status: 'sending' });
  });
});

describe('leads without campaign', () => {
  it('shows, filters and exports a lead stored with utm_source "direct" like one stored before, without it', async () => {
    // Last: the other tests count three leads. Carla (NULL) is the lead stored before the default.
    const dario = await insertLead(api.db, {
      nome: 'Dario',
      cognome: 'Bassi',
      email: 'dario@example.it',
      created_at: '2026-11-07T10:00:00+01:00',
      landing_path: '/',
      utm_source: 'direct',
      referrer_host: 'www.bing.com',
      first_utm_source: 'direct',
      first_referrer_host: 'www.bing.com',
    });
    const [shown] = (await list({ from: '2026-11-07' })).items;
    expect(shown).toMatchObject({
      id: dario.leadId,
      ...emptyTouch(),
      referrerHost: 'www.bing.com',
      firstTouch: { ...emptyTouch(), referrerHost: 'www.bing.com' },
    });
    const detail = await admin.agent.get(`/api/admin/leads/${dario.leadId}`);
    expect(detail.body.lead).toMatchObject({ utmSource: null, firstTouch: { utmSource: null } });

    // "(direct)", as the funnel and the overview name it, or the stored default.
    expect(await ids({ utmSource: '(direct)' })).toEqual([dario.leadId, carla.leadId]);
    expect(await ids({ utmSource: 'direct' })).toEqual([dario.leadId, carla.leadId]);
    expect(await ids({ utmSource: 'google' })).toEqual([anna.leadId]);

    const csv = await admin.agent.get('/api/admin/leads/export.csv').query({ utmSource: '(direct)' });
    const rows = csv.text.split('\r\n').filter(Boolean).slice(1);
    expect(rows.map((row) => Number(row.split(';')[0]))).toEqual([dario.leadId, carla.leadId]);
    // Dario's cells as Carla's (checked above): empty utm_source in both touches.
    const columns = csv.text.slice(1).split('\r\n')[0]!.split(';');
    const cells = rows[0]!.split(';');
    expect(cells[columns.indexOf('utm_source')]).toBe('');
    expect(cells[columns.indexOf('first_utm_source')]).toBe('');
    expect(cells[columns.indexOf('referrer_host')]).toBe('www.bing.com');
  });
});

describe('withdrawing the marketing consent (decision 048)', () => {
  // Last: the tests above count and export the first leads of this file.
  const withdraw = (id: number, csrf: string | null = admin.csrfToken) => {
    const post = admin.agent.post(`/api/admin/leads/${id}/withdraw-marketing`);
    return csrf === null ? post : post.set('X-CSRF-Token', csrf);
  };
  const csvCells = async (id: number) => {
    const csv = await admin.agent.get('/api/admin/leads/export.csv').query({ q: String(id) });
    const [header, ...rows] = csv.text.slice(1).split('\r\n').filter(Boolean);
    const row = rows.find((line) => line.startsWith(`${id};`))!.split(';');
    return Object.fromEntries(header!.split(';').map((name, index) => [name, row[index]]));
  };

  it('refuses the action without the CSRF token (403), changing nothing', async () => {
    const lead = await insertLead(api.db, { email: 'senza.token@example.it', telefono: uniqueItalianMobile() });
    for (const csrf of [null, 'not-the-token']) {
      const refused = await withdraw(lead.leadId, csrf);
      expect(refused.status).toBe(403);
    }
    expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeNull();
    expect(await api.db('crm_deliveries').where({ lead_id: lead.leadId, event: 'lead.consent_withdrawn' })).toEqual([]);
    expect(await api.db('admin_audit_log').where({ action: 'withdraw_marketing_consent', target_id: String(lead.leadId) })).toEqual([]);
  });

  it('does what the emailed link does, audited: consent row, suppression, one CRM event; a second time says so', async () => {
    const telefono = uniqueItalianMobile();
    const lead = await insertLead(api.db, {
      email: 'revoca.admin@example.it',
      telefono,
      marketing_consent: true,
      marketing_consent_version: '1.0',
    });
    const done = await withdraw(lead.leadId);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: marketingWithdrawalMessages.withdrawn });

    expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeInstanceOf(Date);
    const consents = await api.db('gdpr_consents').where({ lead_id: lead.leadId, consent_type: 'marketing' });
    expect(consents).toEqual([expect.objectContaining({ consented: false, consent_version: '1.0', ip_address: null })]);
    const hashes = contactHashesOf(api.config.SUPPRESSION_HASH_SECRET, { email: 'revoca.admin@example.it', telefono });
    const suppressions = await api.db('marketing_suppressions').whereIn('contact_hash', [hashes.email, hashes.phone]);
    expect(suppressions.map((row) => row.source)).toEqual(['admin', 'admin']);
    const [event] = await api.db('crm_deliveries').where({ lead_id: lead.leadId, event: 'lead.consent_withdrawn' });
    const waiting = await api.deps.queues.queue('crm').getWaiting();
    expect(waiting.map((job) => job.id)).toContain(`lead-${lead.leadId}-lead-consent_withdrawn-${event.id}`);

    const again = await withdraw(lead.leadId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: marketingWithdrawalMessages.alreadyWithdrawn });
    expect(await api.db('crm_deliveries').where({ lead_id: lead.leadId, event: 'lead.consent_withdrawn' })).toHaveLength(1);

    // Who did it, to which lead; never the address or the number.
    const audits = await api.db('admin_audit_log').where({ action: 'withdraw_marketing_consent', target_id: String(lead.leadId) }).orderBy('id');
    expect(audits.map((entry) => [entry.user_id, entry.target_type, entry.details])).toEqual([
      [admin.user.id, 'lead', { leadIds: [lead.leadId] }],
      [admin.user.id, 'lead', { alreadyWithdrawn: true }],
    ]);
    expect(JSON.stringify(audits)).not.toMatch(/revoca\.admin|\d{9}/);

    const unknown = await withdraw(99_999_999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(adminMessages.leadNotFound);
  });

  it('stores a person who comes back with the consent as given, and shows the suppression in the list, the detail and the CSV', async () => {
    const telefono = uniqueItalianMobile();
    const before = await insertLead(api.db, { email: 'ritorno@example.it', telefono: uniqueItalianMobile() });
    expect((await withdraw(before.leadId)).status).toBe(200);
    const { suppressed_at: suppressedAt } = await api.db('marketing_suppressions').where({ contact_kind: 'email' }).orderBy('suppressed_at', 'desc').first();

    // Same email (another number), and same number as a suppressed lead (another email).
    const sameEmail = await admin.agent.post('/api/ebook-request').send(validLead({ email: 'Ritorno@Example.it', telefono, marketingConsent: true }));
    expect(sameEmail.status).toBe(201);
    const stored = await api.db('ebook_requests').where({ id: sameEmail.body.id }).first();
    expect(stored).toMatchObject({ marketing_consent: true, marketing_consent_version: '1.0', marketing_consent_withdrawn_at: null });
    expect(await api.db('gdpr_consents').where({ lead_id: sameEmail.body.id, consent_type: 'marketing' })).toEqual([
      expect.objectContaining({ consented: true }),
    ]);
    const samePhone = await insertLead(api.db, { email: 'un.altro@example.it', telefono: before.telefono });
    const unrelated = await insertLead(api.db, { email: 'nessuna.revoca@example.it', telefono: uniqueItalianMobile() });

    const listed = leadListSchema.parse((await admin.agent.get('/api/admin/leads').query({ q: 'example.it', pageSize: 200 })).body);
    const suppressedIn = (id: number) => listed.items.find((item) => item.id === id)!.marketingSuppressedAt;
    expect(suppressedIn(sameEmail.body.id)).toBe(suppressedAt.toISOString());
    expect(suppressedIn(samePhone.leadId)).toBe(suppressedAt.toISOString());
    expect(suppressedIn(unrelated.leadId)).toBeNull();

    const detail = leadDetailSchema.parse((await admin.agent.get(`/api/admin/leads/${sameEmail.body.id}`)).body);
    expect(detail.lead).toMatchObject({ marketingConsent: true, marketingConsentWithdrawnAt: null, marketingSuppressedAt: suppressedAt.toISOString() });
    expect(detail.suppression).toEqual({ suppressedAt: suppressedAt.toISOString(), kinds: ['email'], source: 'admin' });
    const withdrawnDetail = leadDetailSchema.parse((await admin.agent.get(`/api/admin/leads/${before.leadId}`)).body);
    expect(withdrawnDetail.lead.marketingConsentWithdrawnAt).toEqual(expect.any(String));
    expect(withdrawnDetail.suppression?.kinds).toEqual(['email', 'phone']);
    expect((await admin.agent.get(`/api/admin/leads/${unrelated.leadId}`)).body.suppression).toBeNull();

    const cells = await csvCells(sameEmail.body.id);
    expect(cells).toMatchObject({ consenso_marketing: 'sì', consenso_marketing_revocato_il: '' });
    expect(cells.marketing_soppresso_dal).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await csvCells(before.leadId)).consenso_marketing_revocato_il).toMatch(/^\d{4}-\d{2}-\d{2} /);
    expect((await csvCells(unrelated.leadId)).marketing_soppresso_dal).toBe('');
  });
});
