/**
 * The whole life of each data request, on real Postgres, Redis, SMTP (loopback) and a
 * CRM webhook receiver: the visitor asks, the confirmation link arrives by email, the
 * visitor confirms, an admin processes it, the worker job does the work, the result
 * arrives (export link, CRM events, outcome email). Deletion is checked by scanning every
 * text column of every table for the person's email, phone numbers and names.
 */
import type { Knex } from 'knex';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdprEmails, gdprPages } from '@guida/shared/gdpr-server-texts';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { consentHistorySchema } from '@guida/shared/schemas/gdpr';
import { dataRequestListSchema } from '@guida/shared/schemas/admin';
import { emailHash } from '@guida/shared/server/personal-data-hash';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { signInAsAdmin } from '../../api/src/testing/admin-session';
import { createTestApi, type TestApi } from '../../api/src/testing/test-api';
import { createTestWorker, type TestWorker } from '../../worker/src/testing/test-worker';

const CRM_SECRET = testWebhookSecret('data rights CRM');

const BASE_URL = 'https://guida.example.it';

let smtp: SmtpCapture;
let crm: FakeCrm;
let api: TestApi;
let worker: TestWorker;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

beforeAll(async () => {
  [smtp, crm] = await Promise.all([startSmtpCapture(), startFakeCrm({ secret: CRM_SECRET })]);
  api = await createTestApi();
  // The worker on the API's database and Redis prefix, as in production.
  worker = await createTestWorker({
    DATABASE_URL: api.config.DATABASE_URL,
    REDIS_KEY_PREFIX: api.prefix,
    PUBLIC_BASE_URL: BASE_URL,
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'Guida Finanza <privacy@example.it>',
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
    GDPR_RETRY_BASE_MS: '20',
  });
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
  await Promise.all([smtp?.close(), crm?.close()]);
});

let phoneCounter = 0;
const uniquePhone = () => `+39349${String(process.pid * 100 + (phoneCounter += 1)).slice(-7).padStart(7, '0')}`;

/** A lead through the real intake, once its SMS went out and the CRM has it. */
async function createDeliveredLead(
  values: { nome: string; cognome: string; email: string; marketingConsent?: boolean } & Record<string, unknown>,
) {
  const telefono = uniquePhone();
  const response = await request(api.app)
    .post('/api/ebook-request')
    .set('User-Agent', 'Mozilla/5.0 (lifecycle test)')
    .send({ ...values, telefono, gdprConsent: true, ebookType: 'financial-education', source: 'landing-page' });
  expect(response.status).toBe(201);
  const leadId = response.body.id as number;
  await waitFor(async () => (await api.db('sms_messages').where({ lead_id: leadId }).first())?.status === 'sent', {
    what: `SMS of lead ${leadId}`,
  });
  await waitFor(
    async () => (await api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.created' }).first())?.status === 'delivered',
    { what: `CRM delivery of lead ${leadId}` },
  );
  return { leadId, telefono };
}

/** A cookie choice accepting marketing, as the banner records it: the lead keeps its click ids (decision 049). */
async function marketingCookiesAccepted() {
  const sessionId = `lifecycle_${String(process.pid)}_${String((phoneCounter += 1)).padStart(12, '0')}`;
  const response = await request(api.app)
    .post('/api/cookie-consent')
    .send({ sessionId, essential: true, analytics: false, marketing: true, preferences: false });
  expect(response.status).toBe(201);
  return sessionId;
}

const emailTo = (address: string, subject: string) =>
  waitFor(() => smtp.emails.find((email) => email.to.includes(address) && email.subject === subject), {
    what: `"${subject}" to ${address}`,
  });

/** The first link to `path` in an email, as a path for supertest. */
function linkIn(email: CapturedEmail, path: string) {
  const match = new RegExp(`${BASE_URL.replace(/\./g, '\\.')}${path}[A-Za-z0-9_-]+(\\?format=csv)?`).exec(email.text);
  if (!match) throw new Error(`no ${path} link in: ${email.text}`);
  return match[0].slice(BASE_URL.length);
}

const latestRequestOf = (email: string) =>
  api.db('gdpr_data_requests').where({ email_hash: emailHash(email) }).orderBy('id', 'desc').first();

/** The visitor's side: the form, the confirmation email, the confirmation page. */
async function submitAndConfirm(email: string, requestType: string, details?: string) {
  const submitted = await request(api.app).post('/api/gdpr/requests').send({ email, requestType, details });
  expect(submitted.status).toBe(202);
  const confirmation = await emailTo(email, gdprEmails.confirmSubject);
  expect(confirmation.from).toBe('privacy@example.it');
  const link = linkIn(confirmation, '/gdpr/conferma/');
  expect((await latestRequestOf(email)).status).toBe('pending');
  const page = await request(api.app).get(link);
  expect(page.status).toBe(200);
  expect(page.text).toContain(gdprPages.confirmButton);
  const confirmed = await request(api.app).post(link).type('form').send({});
  expect(confirmed.status).toBe(200);
  expect(confirmed.text).toContain(gdprPages.confirmedText);
  const row = await latestRequestOf(email);
  expect(row.status).toBe('confirmed');
  return row.id as number;
}

const processRequest = (id: number, action: 'complete' | 'reject', notes?: string) =>
  admin.agent
    .post(`/api/admin/data-requests/${id}/process`)
    .set('X-CSRF-Token', admin.csrfToken)
    .send({ action, notes });

const waitForStatus = (id: number, status: string) =>
  waitFor(async () => {
    const row = await api.db('gdpr_data_requests').where({ id }).first();
    return row.status === status && row;
  }, { what: `data request ${id} to be ${status}` });

/** Every (table, column) of the public schema whose text holds one of the needles. */
async function findPersonalData(db: Knex, needles: string[]) {
  const columns = await db('information_schema.columns')
    .where({ table_schema: 'public' })
    .whereIn('data_type', ['text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY'])
    .select<{ table_name: string; column_name: string }[]>('table_name', 'column_name');
  expect(columns.length).toBeGreaterThan(40);
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const needle of needles) {
      const found = await db(table)
        .whereRaw('position(lower(?) in lower(??::text)) > 0', [needle, column])
        .first(db.raw('1 AS found'));
      if (found) hits.push(`${table}.${column} holds ${needle}`);
    }
  }
  return hits;
}

describe('access request', () => {
  it('ends with a personal link to everything held for the address, as JSON and CSV', async () => {
    const email = 'ludovica.santangelo@example.it';
    const { leadId, telefono } = await createDeliveredLead({
      nome: 'Ludovica',
      cognome: 'Santangelo',
      email,
      marketingConsent: true,
      utmSource: 'google',
      gclid: 'Cj0KCQ-ludovica',
      firstTouch: { fbclid: 'IwAR0-ludovica', referrerHost: 'l.facebook.com' },
      cookieConsentSessionId: await marketingCookiesAccepted(),
    });
    const linkHash = (await api.db('download_tokens').where({ lead_id: leadId }).first()).token_hash as string;

    const id = await submitAndConfirm(email, 'access');
    expect((await processRequest(id, 'complete')).status).toBe(202);
    await waitForStatus(id, 'completed');

    const delivered = await emailTo(email, gdprEmails.exportSubject);
    const jsonLink = linkIn(delivered, '/gdpr/export/');
    const csvLink = `${jsonLink}?format=csv`;
    expect(delivered.text).toContain(`${BASE_URL}${csvLink}`);

    const json = await request(api.app).get(jsonLink);
    expect(json.status).toBe(200);
    expect(json.headers['content-disposition']).toBe('attachment; filename="dati-personali.json"');
    const exported = JSON.parse(json.text);
    expect(exported.email).toBe(email);
    expect(Object.keys(exported.information)).toEqual(
      expect.arrayContaining(['finalita', 'destinatari', 'conservazione', 'cookie', 'statistiche']),
    );
    const { data } = exported;
    expect(data.ebook_requests).toEqual([
      expect.objectContaining({
        id: leadId,
        nome: 'Ludovica',
        cognome: 'Santangelo',
        email,
        telefono,
        marketing_consent: true,
        marketing_consent_version: '1.0',
        user_agent: 'Mozilla/5.0 (lifecycle test)',
        // The campaign of the visit is part of what is held about the person.
        utm_source: 'google',
        gclid: 'Cj0KCQ-ludovica',
        first_fbclid: 'IwAR0-ludovica',
        first_referrer_host: 'l.facebook.com',
        ad_user_data: 'granted',
        ad_personalization: 'granted',
      }),
    ]);
    expect(data.gdpr_consents.map((c: { consent_type: string }) => c.consent_type).sort()).toEqual(['marketing', 'privacy']);
    for (const consent of data.gdpr_consents) expect(consent.consent_text_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(data.sms_messages).toEqual([expect.objectContaining({ lead_id: leadId, status: 'sent', provider: 'outbox' })]);
    expect(data.sms_events.length).toBeGreaterThan(0);
    expect(data.crm_deliveries).toEqual([
      expect.objectContaining({ lead_id: leadId, event: 'lead.created', status: 'delivered' }),
    ]);
    // Built before its own email was written: the confirmation is the one email so far.
    expect(data.email_messages).toEqual([expect.objectContaining({ kind: 'gdpr-confirm', status: 'delivered', data_request_id: id })]);
    expect(data.download_tokens).toEqual([expect.objectContaining({ lead_id: leadId, download_count: 0 })]);
    expect(data.download_tokens[0]).not.toHaveProperty('token');
    expect(data.gdpr_data_requests).toEqual([
      expect.objectContaining({ id, request_type: 'access', status: 'processing' }),
    ]);
    // Keys to links are not data about the person.
    expect(json.text).not.toContain(linkHash);
    expect(json.text).not.toMatch(/token_hash/);

    const csv = await request(api.app).get(csvLink);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('tabella;id;campo;valore');
    expect(lines).toEqual(
      expect.arrayContaining([
        `ebook_requests;${leadId};nome;Ludovica`,
        `ebook_requests;${leadId};telefono;'${telefono}`,
        `ebook_requests;${leadId};user_agent;Mozilla/5.0 (lifecycle test)`,
        `gdpr_data_requests;${id};request_type;access`,
      ]),
    );
    // Every value of the JSON is in the CSV.
    const csvRows = lines.length - 1;
    const jsonFields = Object.values(data as Record<string, Record<string, unknown>[]>)
      .flat()
      .reduce((sum, row) => sum + Object.keys(row).length - 1, 0);
    expect(csvRows).toBe(jsonFields);

    expect(await api.db('gdpr_exports').where({ data_request_id: id }).first()).toMatchObject({ download_count: 2 });
  });
});

describe('portability request for an address we hold nothing for', () => {
  it('goes through the same steps and exports only the request itself', async () => {
    const email = 'sconosciuto.totale@example.it';
    const id = await submitAndConfirm(email, 'portability');
    expect((await processRequest(id, 'complete')).status).toBe(202);
    await waitForStatus(id, 'completed');
    const delivered = await emailTo(email, gdprEmails.exportSubject);
    const exported = JSON.parse((await request(api.app).get(linkIn(delivered, '/gdpr/export/'))).text);
    expect(exported.data.ebook_requests).toEqual([]);
    expect(exported.data.gdpr_consents).toEqual([]);
    expect(exported.data.gdpr_data_requests).toEqual([expect.objectContaining({ id, request_type: 'portability' })]);
  });
});

describe('deletion request', () => {
  it('erases the person everywhere, cancels their jobs, tells the CRM and keeps only a record without the data', async () => {
    const email = 'zenobia.quartararo@example.it';
    const person = { nome: 'Zenobia', cognome: 'Quartararo', email };
    const first = await createDeliveredLead(person);
    const second = await createDeliveredLead({
      ...person,
      marketingConsent: true,
      gclid: 'Cj0KCQ-zenobia',
      firstTouch: { ttclid: 'E.C.P.zenobia' },
      cookieConsentSessionId: await marketingCookiesAccepted(),
    });
    const other = await createDeliveredLead({ nome: 'Ottavio', cognome: 'Bellincioni', email: 'ottavio.b@example.it' });
    // A resend waiting in the queue, and an admin search that mentions the address.
    await worker.deps.queues.queue('sms').remove(`lead-${first.leadId}`);
    await worker.deps.queues
      .queue('sms')
      .add(sendGuideSmsJob.name, { leadId: first.leadId }, { jobId: `lead-${first.leadId}`, delay: 3_600_000 });
    await api.db('admin_audit_log').insert({
      username: admin.user.username,
      user_id: admin.user.id,
      action: 'export_leads_csv',
      details: { filters: { q: email } },
    });
    const needles = [
      email,
      first.telefono,
      second.telefono,
      first.telefono.slice(1),
      second.telefono.slice(1),
      'Zenobia',
      'Quartararo',
      // Click ids tie a person to an ad platform's records: they go with the lead.
      'Cj0KCQ-zenobia',
      'E.C.P.zenobia',
    ];
    expect((await findPersonalData(api.db, needles)).length).toBeGreaterThan(10);

    const id = await submitAndConfirm(email, 'deletion');
    const accepted = await processRequest(id, 'complete');
    expect(accepted.status).toBe(202);

    await emailTo(email, gdprEmails.deletionCompletedSubject);
    const done = await waitFor(async () => {
      const row = await api.db('gdpr_data_requests').where({ id }).first();
      return row.status === 'completed' && row.email === null && row;
    }, { what: 'the deletion to complete and its address to be forgotten' });
    expect(done).toMatchObject({ request_type: 'deletion', email_hash: emailHash(email), processed_by: admin.user.id });
    expect(done.erased_at).toBeInstanceOf(Date);

    // The CRM is told, with the ids only.
    const deletions = await waitFor(() => {
      const found = crm.requests.filter((r) => JSON.parse(r.body).event === 'lead.deleted');
      return found.length >= 2 && found;
    }, { what: 'two lead.deleted webhooks' });
    expect(deletions.map((r) => JSON.parse(r.body).lead).sort((a, b) => a.id - b.id)).toEqual([
      { id: first.leadId },
      { id: second.leadId },
    ]);
    await waitFor(async () => {
      const rows = await api.db('crm_deliveries').where({ event: 'lead.deleted' });
      return rows.length === 2 && rows.every((row) => row.status === 'delivered' && row.lead_id === null);
    });

    // Nothing personal is left in any table.
    expect(await findPersonalData(api.db, needles)).toEqual([]);
    expect(await worker.deps.queues.queue('sms').getJob(`lead-${first.leadId}`)).toBeUndefined();

    // The other visitor is untouched.
    expect(await api.db('ebook_requests').where({ id: other.leadId }).first()).toMatchObject({ nome: 'Ottavio' });
    expect(await api.db('outbox_messages').where({ recipient: other.telefono })).toHaveLength(1);

    // What is kept: the erasure record and the pseudonymised consent proof.
    const erasure = await api.db('gdpr_erasures').where({ data_request_id: id }).first();
    expect(erasure).toMatchObject({ reason: 'request', email_hash: emailHash(email) });
    expect([...erasure.lead_ids].sort((a: number, b: number) => a - b)).toEqual([first.leadId, second.leadId]);
    expect(erasure.erased_rows).toMatchObject({ ebook_requests: 2, sms_messages: 2, outbox_messages: 2, admin_audit_log_redacted: 1 });
    const history = consentHistorySchema.parse(
      (await admin.agent.get(`/api/admin/consent-history?email=${encodeURIComponent(email)}`)).body,
    );
    expect(history.leads).toEqual([]);
    expect(history.consents.map((c) => [c.consentType, c.pseudonymised, c.ipAddress, c.leadId])).toEqual([
      ['privacy', true, null, null],
      ['privacy', true, null, null],
      ['marketing', true, null, null],
    ]);
    expect(history.erasures).toEqual([expect.objectContaining({ reason: 'request' })]);
  });
});

describe('rectification request', () => {
  it('shows the admin what to correct; the corrected lead reaches the CRM as lead.updated', async () => {
    const email = 'francesca.lombardo@example.it';
    const { leadId } = await createDeliveredLead({ nome: 'Frncesca', cognome: 'Lombardo', email });
    const id = await submitAndConfirm(email, 'rectification', 'Il mio nome è Francesca, non Frncesca');

    const list = dataRequestListSchema.parse((await admin.agent.get('/api/admin/data-requests?status=confirmed')).body);
    expect(list.items.find((item) => item.id === id)).toMatchObject({
      details: 'Il mio nome è Francesca, non Frncesca',
      leadIds: [leadId],
    });
    const lead = await api.db('ebook_requests').where({ id: leadId }).first();
    const rectified = await admin.agent
      .post(`/api/admin/leads/${leadId}/rectify`)
      .set('X-CSRF-Token', admin.csrfToken)
      .send({ nome: 'Francesca', cognome: lead.cognome, email: lead.email, telefono: lead.telefono, dataRequestId: id });
    expect(rectified.status).toBe(202);

    const update = await waitFor(
      () => crm.requests.find((r) => JSON.parse(r.body).event === 'lead.updated' && JSON.parse(r.body).lead.id === leadId),
      { what: 'lead.updated webhook' },
    );
    expect(JSON.parse(update.body)).toMatchObject({ event: 'lead.updated', lead: { id: leadId, nome: 'Francesca', email } });

    expect((await processRequest(id, 'complete')).status).toBe(202);
    await waitForStatus(id, 'completed');
    const confirmation = await emailTo(email, gdprEmails.rectificationCompletedSubject);
    expect(confirmation.text).toContain('abbiamo corretto i tuoi dati');
  });
});

describe('rejected request', () => {
  it('tells the requester why', async () => {
    const email = 'richiesta.respinta@example.it';
    const id = await submitAndConfirm(email, 'access');
    expect((await processRequest(id, 'reject', 'La richiesta è già stata evasa il mese scorso.')).status).toBe(202);
    const answer = await emailTo(email, gdprEmails.rejectedSubject);
    expect(answer.text).toContain('Motivo: La richiesta è già stata evasa il mese scorso.');
    expect((await api.db('gdpr_data_requests').where({ id }).first()).status).toBe('rejected');
  });
});
