/**
 * The whole path with the real processes: a lead posted to the bundled API is stored,
 * the bundled worker sends its SMS through the real twilio client to a local
 * Twilio-compatible server, that server's signed status callbacks reach the API, the CRM
 * gets the signed lead, a failed SMS turns into an email, the link serves the guide.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EBOOK_TYPES } from '@guida/shared/lead-rules';
import { guideLinkToken } from '@guida/shared/server/guide-link-token';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { postLead as postLeadTo } from '@guida/testing/post-lead';
import { processEnv, runBundled, startApi, startWorker, type RunningProcess } from '@guida/testing/processes';

let database: TestDatabase;
let twilio: FakeTwilio;
let crm: FakeCrm;
let smtp: SmtpCapture;
let api: RunningProcess;
let worker: RunningProcess;
let baseUrl: string;
let env: Record<string, string>;
let guidesDir: string;
const prefix = uniquePrefix('system');
const CRM_SECRET = testWebhookSecret('system test CRM');

beforeAll(async () => {
  [database, twilio, crm, smtp] = await Promise.all([
    createTestDatabase(),
    startFakeTwilio(),
    startFakeCrm({ secret: CRM_SECRET }),
    startSmtpCapture(),
  ]);
  guidesDir = mkdtempSync(path.join(tmpdir(), 'guides-'));
  for (const type of EBOOK_TYPES) writeFileSync(path.join(guidesDir, `${type}.pdf`), `%PDF-1.4 ${type}`);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    ...processEnv({ port, databaseUrl: database.url, redisKeyPrefix: prefix }),
    ...twilio.env,
    GUIDES_DIR: guidesDir,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
    SMTP_URL: smtp.url,
    SMS_RETRY_BASE_MS: '50',
    CRM_RETRY_BASE_MS: '50',
    EMAIL_RETRY_BASE_MS: '50',
  };
  [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await Promise.all([twilio.close(), crm.close(), smtp.close()]);
  await deleteRedisKeys(prefix);
  await database.drop();
  rmSync(guidesDir, { recursive: true, force: true });
});

const postLead = (lead: Record<string, unknown>) =>
  postLeadTo(baseUrl, { cognome: 'Esposito', ebookType: 'investment-education', ...lead });

const smsOf = (leadId: number) => database.db('sms_messages').where({ lead_id: leadId }).first();

describe('a lead, end to end', () => {
  it('gets its SMS within seconds, the delivery is recorded, the CRM gets the lead, the link serves the guide', async () => {
    const created = await postLead({ nome: 'Chiara', email: 'chiara@example.it', telefono: '+39 347 700 0001' });
    expect(created.status).toBe(201);
    expect(created.body.redirectTo).toBe('/grazie-italia');

    const [sms] = await twilio.waitForMessages(1);
    expect(sms!.to).toBe('+393477000001');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/g\/[A-Za-z0-9_-]{22})/.exec(sms!.body)?.[1];
    expect(link).toBeDefined();
    await waitFor(async () => (await smsOf(created.body.id)).status === 'sent');

    // Twilio reports the delivery to the API, signed.
    expect(await twilio.sendStatusCallback(sms!.sid, 'delivered')).toBe(204);
    const delivered = await smsOf(created.body.id);
    expect(delivered.status).toBe('delivered');

    const [webhook] = await crm.waitForRequests(1);
    expect(JSON.parse(webhook!.body).lead).toMatchObject({ id: created.body.id, email: 'chiara@example.it' });
    // The CRM verified it with the standardwebhooks package (and would have answered 401).
    expect(webhook!.verified).toBe(true);
    expect(webhook!.answered).toBe(200);
    expect(webhook!.headers['x-guida-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);

    const download = await fetch(link!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(await download.text()).toBe('%PDF-1.4 investment-education');
  });

  it('sends the link by email when the SMS is reported undelivered', async () => {
    const created = await postLead({ nome: 'Paolo', email: 'paolo@example.it', telefono: '+41 79 700 00 02' });
    expect(created.body.redirectTo).toBe('/grazie-svizzera');
    const sms = (await twilio.waitForMessages(2))[1]!;
    await waitFor(async () => (await smsOf(created.body.id)).status === 'sent');

    expect(await twilio.sendStatusCallback(sms.sid, 'undelivered', '30003')).toBe(204);
    const [email] = await smtp.waitForEmails(1);
    expect(email!.to).toEqual(['paolo@example.it']);
    // The link the SMS carried, derived again by the worker: only its hash is stored.
    const { token, hash } = guideLinkToken(env.LINK_TOKEN_SECRET!, created.body.id);
    expect(sms.body).toContain(`${baseUrl}/g/${token}`);
    expect(email!.text).toContain(`${baseUrl}/g/${token}`);
    expect(await database.db('download_tokens').where({ lead_id: created.body.id }).first()).toMatchObject({ token_hash: hash });
    expect(await smsOf(created.body.id)).toMatchObject({ status: 'undelivered', error_code: '30003' });
  });

  it('keeps personal data out of both processes’ logs', () => {
    const logs = api.output() + worker.output();
    expect(logs).toContain('"leadId"');
    for (const personal of ['Chiara', 'chiara@example.it', '3477000001', 'Paolo', 'paolo@example.it', '797000002']) {
      expect(logs).not.toContain(personal);
    }
  });

  it('lets an active job finish on SIGTERM before the worker exits', async () => {
    crm.respondAfter(1500);
    const created = await postLead({ nome: 'Sara', email: 'sara@example.it', telefono: '+39 347 700 0003' });
    // The CRM request is in flight: the server answers only after 1.5 s.
    await waitFor(() => crm.inFlight() === 1, { what: 'the CRM request to be in flight' });
    const exitCode = await worker.stop('SIGTERM');
    expect(exitCode).toBe(0);
    const delivery = await database.db('crm_deliveries').where({ lead_id: created.body.id }).first();
    expect(crm.requestsFor(delivery.id)).toHaveLength(1);
    expect(crm.requestsFor(delivery.id)[0]!.answered).toBe(200);
    expect(delivery.status).toBe('delivered');
    crm.respondAfter(0);
  });
});

describe('configuration', () => {
  it('stops the process with a message naming the wrong variable', async () => {
    const broken = runBundled('api/dist/server.js', { ...env, PORT: 'ottanta', SMS_PROVIDER: 'pigeon' });
    expect(await broken.exited).toBe(1);
    expect(broken.output()).toContain('Invalid configuration');
    expect(broken.output()).toContain('PORT: must be a whole number');
    expect(broken.output()).toMatch(/SMS_PROVIDER: .*"outbox"/);
    expect(broken.output()).not.toContain('system-test-session-secret');
  });

  it('stops the worker with a message saying what a CRM webhook secret must be', async () => {
    const secret = 'whsec_this is not base64';
    const broken = runBundled('worker/dist/index.js', { ...env, CRM_WEBHOOK_SECRET: secret });
    expect(await broken.exited).toBe(1);
    expect(broken.output()).toContain('Invalid configuration');
    expect(broken.output()).toContain('CRM_WEBHOOK_SECRET: must be "whsec_" followed by standard base64');
    expect(broken.output()).toContain('generate one with: node -e');
    expect(broken.output()).not.toContain(secret);
  });
});
