/**
 * Withdrawing the marketing consent from an email, end to end (decision 048), on real
 * Postgres, Redis, SMTP (loopback) and a CRM receiver that verifies every signature: a lead
 * asks for the guide, gets an email, withdraws with its link; the CRM hears it once; the
 * person's data is erased on request and the suppression stays; the person comes back and
 * is stored with the consent they give, sent to the CRM as suppressed.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdprEmails } from '@guida/shared/gdpr-server-texts';
import { sendEmailJob } from '@guida/shared/jobs/email';
import { marketingWithdrawalPages as pages } from '@guida/shared/marketing-withdrawal';
import { contactHashesOf } from '@guida/shared/server/marketing-suppression';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startSmtpCapture, type CapturedEmail, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { signInAsAdmin } from '../../api/src/testing/admin-session';
import { createTestApi, type TestApi } from '../../api/src/testing/test-api';
import { createTestWorker, type TestWorker } from '../../worker/src/testing/test-worker';

const CRM_SECRET = testWebhookSecret('withdrawal CRM');
const BASE_URL = 'https://guida.example.it';

let smtp: SmtpCapture;
let crm: FakeCrm;
let api: TestApi;
let worker: TestWorker;

beforeAll(async () => {
  [smtp, crm] = await Promise.all([startSmtpCapture(), startFakeCrm({ secret: CRM_SECRET })]);
  api = await createTestApi();
  // The worker on the API's database and Redis prefix, as in production.
  worker = await createTestWorker({
    DATABASE_URL: api.config.DATABASE_URL,
    REDIS_KEY_PREFIX: api.prefix,
    PUBLIC_BASE_URL: BASE_URL,
    SMTP_URL: smtp.url,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
    GDPR_RETRY_BASE_MS: '20',
  });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
  await Promise.all([smtp?.close(), crm?.close()]);
});

const emailTo = (address: string, subject: string) =>
  waitFor(() => smtp.emails.find((email) => email.to.includes(address) && email.subject === subject), {
    what: `"${subject}" to ${address}`,
  });

const pathOf = (email: CapturedEmail, path: string) => {
  const match = new RegExp(`${BASE_URL.replace(/\./g, '\\.')}(${path}[A-Za-z0-9_-]+)`).exec(email.text);
  if (!match) throw new Error(`no ${path} link in: ${email.text}`);
  return match[1]!;
};

const crmEvents = (leadId: number, event: string) =>
  crm.requests.filter((received) => {
    const body = JSON.parse(received.body) as { event: string; lead: { id: number } };
    return body.event === event && body.lead.id === leadId;
  });

async function guideRequest(values: { email: string; telefono: string; marketingConsent: boolean }) {
  const response = await request(api.app)
    .post('/api/ebook-request')
    .set('User-Agent', 'Mozilla/5.0 (withdrawal test)')
    .send({ nome: 'Serena', cognome: 'Marchetti', ...values, gdprConsent: true, ebookType: 'financial-education', source: 'landing-page' });
  expect(response.status).toBe(201);
  return response.body.id as number;
}

describe('marketing consent withdrawn from an email', () => {
  it('withdraws from the link of the email, tells the CRM once, keeps the suppression through an erasure, and recognises the person who comes back', async () => {
    const email = 'serena.marchetti@example.it';
    const telefono = '+393475550123';
    const leadId = await guideRequest({ email, telefono, marketingConsent: true });
    // The guide link by email (the SMS failed): an email to the lead.
    const [row] = await api.db('email_messages').insert({ lead_id: leadId, kind: 'guide-link' }).returning('id');
    await worker.deps.queues.enqueue(sendEmailJob, { emailMessageId: row.id });
    const guideEmail = await emailTo(email, 'La tua guida gratuita');
    const link = pathOf(guideEmail, '/revoca-marketing/');
    // Header fields unfolded (RFC 5322 folds long ones).
    expect(guideEmail.raw.replace(/\r\n[ \t]+/g, ' ')).toContain(`List-Unsubscribe: <${BASE_URL}${link}>\r\n`);

    const page = await request(api.app).get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain(pages.confirmButton);
    const withdrawn = await request(api.app).post(link).type('form').send({});
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.text).toContain(pages.withdrawnText);

    const delivery = await waitFor(
      async () => {
        const found = await api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.consent_withdrawn' }).first();
        return found?.status === 'delivered' && found;
      },
      { what: 'the lead.consent_withdrawn delivery' },
    );
    const [sent] = await crm.waitForRequests(1, { deliveryId: delivery.id });
    // The receiver checked it with the standardwebhooks package, as a real CRM does.
    expect(sent!.verified).toBe(true);
    expect(sent!.answered).toBe(200);
    expect(JSON.parse(sent!.body)).toMatchObject({
      id: delivery.id,
      event: 'lead.consent_withdrawn',
      lead: { id: leadId, email, telefono, marketingConsent: false, marketingConsentVersion: '1.0', marketingSuppressed: true },
    });

    // A second click: already done, and nothing more reaches the CRM.
    const again = await request(api.app).post(link);
    expect(again.text).toContain(pages.alreadyText);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(crmEvents(leadId, 'lead.consent_withdrawn')).toHaveLength(1);

    // The person asks for their data to be erased: the suppression stays, without the address.
    const hashes = contactHashesOf(api.config.SUPPRESSION_HASH_SECRET, { email, telefono });
    const suppressions = () => api.db('marketing_suppressions').whereIn('contact_hash', [hashes.email, hashes.phone]).orderBy('contact_kind');
    const before = await suppressions();
    expect(before).toHaveLength(2);
    await eraseOnRequest(email);
    expect(await api.db('ebook_requests').where({ id: leadId })).toEqual([]);
    expect(await suppressions()).toEqual(before);
    expect((await request(api.app).get(link)).status).toBe(404);

    // They come back, tick the marketing box again: stored as given, sent as suppressed.
    const backId = await guideRequest({ email, telefono: '+393475550124', marketingConsent: true });
    expect(await api.db('ebook_requests').where({ id: backId }).first()).toMatchObject({
      marketing_consent: true,
      marketing_consent_withdrawn_at: null,
    });
    const created = await waitFor(() => crmEvents(backId, 'lead.created')[0], { what: 'lead.created of the person back' });
    expect(created.verified).toBe(true);
    expect(JSON.parse(created.body).lead).toMatchObject({
      marketingConsent: true,
      marketingSuppressed: true,
      marketingSuppressedAt: before[0].suppressed_at.toISOString(),
    });
  });
});

/** The whole deletion request: the form, the emailed confirmation, an admin completing it. */
async function eraseOnRequest(email: string) {
  const admin = await signInAsAdmin(api);
  expect((await request(api.app).post('/api/gdpr/requests').send({ email, requestType: 'deletion' })).status).toBe(202);
  const confirmation = await emailTo(email, gdprEmails.confirmSubject);
  // No withdrawal link in an email to a requester (decision 048).
  expect(confirmation.text).not.toContain('/revoca-marketing/');
  expect(confirmation.raw).not.toMatch(/^List-Unsubscribe/im);
  expect((await request(api.app).post(pathOf(confirmation, '/gdpr/conferma/')).type('form').send({})).status).toBe(200);
  const { id } = await api.db('gdpr_data_requests').where({ request_type: 'deletion', status: 'confirmed' }).orderBy('id', 'desc').first();
  const processed = await admin.agent.post(`/api/admin/data-requests/${id}/process`).set('X-CSRF-Token', admin.csrfToken).send({ action: 'complete' });
  expect(processed.status).toBe(202);
  await waitFor(async () => (await api.db('gdpr_data_requests').where({ id }).first()).status === 'completed', {
    what: 'the deletion to complete',
  });
}
