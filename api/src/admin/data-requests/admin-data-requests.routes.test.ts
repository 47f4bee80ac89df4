import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDED_CONSENT_TEXT_HASHES } from '@guida/shared/consent-texts';
import { COOKIE_CONSENT_VERSION } from '@guida/shared/cookie-consent-rules';
import { gdprAdminMessages, gdprMessages } from '@guida/shared/gdpr-messages';
import { adminMessages, validationMessages } from '@guida/shared/messages';
import { dataRequestListSchema } from '@guida/shared/schemas/admin';
import { consentHistorySchema } from '@guida/shared/schemas/gdpr';
import { emailHash } from '@guida/shared/server/personal-data-hash';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await api.close();
});

const adminPost = (path: string, body: unknown = {}) =>
  admin.agent.post(`/api/admin${path}`).set('X-CSRF-Token', admin.csrfToken).send(body as object);

let counter = 0;
const uniqueEmail = (label: string) => `${label}.${Date.now()}.${(counter += 1)}@example.it`;

async function insertRequest(values: { requestType: string; status: string; email?: string; details?: string }) {
  const email = values.email ?? uniqueEmail('richiesta');
  const [row] = await api.db('gdpr_data_requests')
    .insert({
      email,
      email_hash: emailHash(email),
      request_type: values.requestType,
      status: values.status,
      request_data: values.details ? { details: values.details } : null,
    })
    .returning('id');
  return { id: row.id as number, email };
}

async function createLead(overrides: Record<string, unknown> = {}) {
  const response = await request(api.app).post('/api/ebook-request').send(validLead(overrides));
  expect(response.status).toBe(201);
  return response.body.id as number;
}

const auditOf = (action: string) => api.db('admin_audit_log').where({ action }).orderBy('id', 'desc').first();

describe('the data-rights admin routes', () => {
  it('sit behind the admin guard: 401 without a session, 403 for a write without the CSRF token', async () => {
    for (const [method, path] of [
      ['get', '/api/admin/data-requests'],
      ['post', '/api/admin/data-requests/1/process'],
      ['get', '/api/admin/consent-history?email=a@b.it'],
      ['post', '/api/admin/leads/1/rectify'],
    ] as const) {
      expect((await request(api.app)[method](path)).status).toBe(401);
    }
    const noCsrf = await admin.agent.post('/api/admin/data-requests/1/process').send({ action: 'reject' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ message: adminMessages.csrf });
  });
});

describe('GET /api/admin/data-requests', () => {
  it('lists the requests newest first, with the leads of each address, by status', async () => {
    const email = uniqueEmail('elenco');
    const leadId = await createLead({ email });
    const older = await insertRequest({ requestType: 'rectification', status: 'confirmed', email, details: 'Cognome: Neri' });
    const newer = await insertRequest({ requestType: 'access', status: 'pending' });

    const response = await admin.agent.get('/api/admin/data-requests');
    expect(response.status).toBe(200);
    const list = dataRequestListSchema.parse(response.body);
    expect(list.items.map((item) => item.id).slice(0, 2)).toEqual([newer.id, older.id]);
    expect(list.items[1]).toMatchObject({
      email,
      requestType: 'rectification',
      status: 'confirmed',
      details: 'Cognome: Neri',
      leadIds: [leadId],
      processedBy: null,
    });

    const confirmed = dataRequestListSchema.parse((await admin.agent.get('/api/admin/data-requests?status=confirmed')).body);
    expect(confirmed.items.every((item) => item.status === 'confirmed')).toBe(true);
    expect((await admin.agent.get('/api/admin/data-requests?status=nonsense')).status).toBe(400);
  });
});

describe('POST /api/admin/data-requests/:id/process', () => {
  it('refuses a request the requester has not confirmed, and unknown ones', async () => {
    const pending = await insertRequest({ requestType: 'deletion', status: 'pending' });
    const refused = await adminPost(`/data-requests/${pending.id}/process`, { action: 'complete' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: gdprAdminMessages.notConfirmed });
    expect((await api.db('gdpr_data_requests').where({ id: pending.id }).first()).status).toBe('pending');

    for (const id of ['999999', 'abc']) {
      const unknown = await adminPost(`/data-requests/${id}/process`, { action: 'complete' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: gdprAdminMessages.requestNotFound });
    }
    const invalid = await adminPost(`/data-requests/${pending.id}/process`, { action: 'delete' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: gdprMessages.actionInvalid, errors: { action: gdprMessages.actionInvalid } });
  });

  it('accepts a confirmed request: processing, its worker job queued, who and when recorded, audited', async () => {
    const confirmed = await insertRequest({ requestType: 'deletion', status: 'confirmed' });
    const response = await adminPost(`/data-requests/${confirmed.id}/process`, { action: 'complete', notes: 'Identità verificata' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: gdprAdminMessages.processing.deletion });
    const row = await api.db('gdpr_data_requests').where({ id: confirmed.id }).first();
    expect(row).toMatchObject({ status: 'processing', processed_by: admin.user.id, notes: 'Identità verificata' });
    expect(row.processed_at).toBeInstanceOf(Date);
    expect((await api.deps.queues.queue('gdpr').getJob(`gdpr-erase-${confirmed.id}`))?.data).toEqual({
      dataRequestId: confirmed.id,
    });
    expect(await auditOf('process_data_request')).toMatchObject({
      user_id: admin.user.id,
      target_type: 'data_request',
      target_id: String(confirmed.id),
      details: { decision: 'complete', requestType: 'deletion' },
    });

    const again = await adminPost(`/data-requests/${confirmed.id}/process`, { action: 'reject' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: gdprAdminMessages.alreadyHandled });

    const list = dataRequestListSchema.parse((await admin.agent.get('/api/admin/data-requests')).body);
    expect(list.items.find((item) => item.id === confirmed.id)?.processedBy).toBe(admin.user.username);
  });

  it('queues the export for access and portability', async () => {
    for (const requestType of ['access', 'portability']) {
      const confirmed = await insertRequest({ requestType, status: 'confirmed' });
      expect((await adminPost(`/data-requests/${confirmed.id}/process`, { action: 'complete' })).status).toBe(202);
      expect(await api.deps.queues.queue('gdpr').getJob(`gdpr-export-${confirmed.id}`)).toBeDefined();
    }
  });

  it('rejects with the reason, which goes to the requester by email', async () => {
    const confirmed = await insertRequest({ requestType: 'access', status: 'confirmed' });
    const response = await adminPost(`/data-requests/${confirmed.id}/process`, {
      action: 'reject',
      notes: 'Richiesta duplicata',
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: gdprAdminMessages.rejected });
    const row = await api.db('gdpr_data_requests').where({ id: confirmed.id }).first();
    expect(row).toMatchObject({ status: 'rejected', notes: 'Richiesta duplicata', processed_by: admin.user.id });
    expect(row.completed_at).toBeInstanceOf(Date);
    expect(await api.db('email_messages').where({ data_request_id: confirmed.id, kind: 'gdpr-rejected' }).first()).toMatchObject({
      status: 'pending',
    });
    expect(await api.deps.queues.queue('gdpr').getJob(`gdpr-export-${confirmed.id}`)).toBeUndefined();
  });
});

describe('GET /api/admin/consent-history', () => {
  it('shows every consent of an address with its proof, and audits the look-up without the address', async () => {
    const email = uniqueEmail('storia');
    const first = await createLead({ email });
    const second = await createLead({ email, marketingConsent: true });
    const response = await admin.agent.get(`/api/admin/consent-history?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(response.status).toBe(200);
    const history = consentHistorySchema.parse(response.body);
    expect(history.email).toBe(email);
    expect(history.consents.map((c) => [c.leadId, c.consentType])).toEqual([
      [first, 'privacy'],
      [second, 'privacy'],
      [second, 'marketing'],
    ]);
    for (const consent of history.consents) {
      expect(consent).toMatchObject({ consented: true, consentVersion: '1.0', pseudonymised: false });
      expect(consent.consentTextHash).toMatch(/^[0-9a-f]{64}$/);
      expect(consent.ipAddress).toMatch(/\.0$|::$/);
    }
    expect(history.leads.map((lead) => [lead.id, lead.marketingConsent, lead.marketingConsentVersion])).toEqual([
      [first, false, null],
      [second, true, '1.0'],
    ]);

    const audit = await auditOf('view_consent_history');
    expect(audit).toMatchObject({ user_id: admin.user.id, details: { consents: 3, leads: 2 } });
    expect(JSON.stringify(audit)).not.toContain(email);

    const invalid = await admin.agent.get('/api/admin/consent-history?email=non-valida');
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe(validationMessages.email);
  });
});

describe('POST /api/admin/leads/:id/rectify', () => {
  it('corrects the lead and its consents, and sends lead.updated to the CRM', async () => {
    const leadId = await createLead({ nome: 'Mari', email: uniqueEmail('vecchia') });
    const email = uniqueEmail('nuova');
    const telefono = uniqueItalianMobile();
    const response = await adminPost(`/leads/${leadId}/rectify`, {
      nome: 'Maria',
      cognome: 'Rossi',
      email: email.toUpperCase(),
      telefono: telefono.replace('+39', ''),
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: gdprAdminMessages.rectified });

    expect(await api.db('ebook_requests').where({ id: leadId }).first()).toMatchObject({
      nome: 'Maria',
      cognome: 'Rossi',
      email,
      telefono,
      country: 'IT',
    });
    const consent = await api.db('gdpr_consents').where({ lead_id: leadId }).first();
    expect(consent).toMatchObject({ email, email_hash: emailHash(email), consent_version: '1.0' });
    const delivery = await api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.updated' }).first();
    expect(delivery).toMatchObject({ status: 'pending', subject_lead_id: leadId });
    const job = await api.deps.queues.queue('crm').getJob(`lead-${leadId}-lead-updated-${delivery.id}`);
    expect(job?.data).toEqual({ deliveryId: delivery.id, leadId, event: 'lead.updated' });
    const audit = await auditOf('rectify_lead');
    expect(audit).toMatchObject({ target_id: String(leadId), details: { fields: ['nome', 'email', 'telefono'] } });
    expect(JSON.stringify(audit)).not.toContain('Maria');

    const unchanged = await adminPost(`/leads/${leadId}/rectify`, { nome: 'Maria', cognome: 'Rossi', email, telefono });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual({ message: gdprAdminMessages.nothingChanged });
    expect(await api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.updated' })).toHaveLength(1);
  });

  it('refuses invalid values with the form messages, and unknown leads', async () => {
    const leadId = await createLead();
    const invalid = await adminPost(`/leads/${leadId}/rectify`, { nome: 'M', cognome: 'Rossi', email: 'x', telefono: '06 1234 5678' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({
      nome: validationMessages.nome,
      email: validationMessages.email,
      telefono: validationMessages.telefono,
    });
    const unknown = await adminPost('/leads/999999/rectify', {
      nome: 'Maria',
      cognome: 'Rossi',
      email: 'maria@example.it',
      telefono: '+393471234567',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: adminMessages.leadNotFound });
  });
});

describe('consent proof', () => {
  it('cannot be changed once stored; only the identity may be erased', async () => {
    const leadId = await createLead({ email: uniqueEmail('prova') });
    await expect(api.db('gdpr_consents').where({ lead_id: leadId }).update({ consented: false })).rejects.toThrow(/append-only/);
    await expect(api.db('gdpr_consents').where({ lead_id: leadId }).update({ consent_version: '0.9' })).rejects.toThrow(
      /append-only/,
    );
    expect(await api.db('gdpr_consents').where({ lead_id: leadId }).update({ email: null, ip_address: null })).toBe(1);
  });

  it('records cookie choices with the version and hash of the texts shown', async () => {
    const response = await request(api.app)
      .post('/api/cookie-consent')
      .set('User-Agent', 'vitest-browser')
      .send({ sessionId: 'sessione-prova-123456', analytics: true, marketing: false, preferences: true });
    expect(response.status).toBe(201);
    const row = await api.db('cookie_consents').where({ session_id: 'sessione-prova-123456' }).first();
    expect(row).toMatchObject({
      analytics: true,
      consent_version: COOKIE_CONSENT_VERSION,
      consent_text_hash: RECORDED_CONSENT_TEXT_HASHES.cookies[COOKIE_CONSENT_VERSION],
      user_agent: 'vitest-browser',
    });
    expect(row.ip_address).toMatch(/\.0$|::$/);
    await expect(api.db('cookie_consents').where({ id: row.id }).update({ analytics: false })).rejects.toThrow(/append-only/);
  });
});
