import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { Job } from 'bullmq';
import { pino } from 'pino';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyTouch } from '@guida/shared/attribution-rules';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { recordSuppression } from '@guida/shared/server/marketing-suppression';
import { startFakeCrm, testWebhookSecret, type FakeCrm, type ReceivedWebhook } from '@guida/testing/fake-crm-server';
import { waitFor } from '@guida/testing/wait-for';
import { insertLead } from '@guida/testing/lead-fixture';
import { claimTimeouts } from '../claim-timeouts';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { crmQueue } from './crm.queue';
import { createDeliverToCrm, type DeliverToCrmDeps } from './deliver-to-crm';

// The worker is in the middle of a change of secret: it signs with both.
const SECRET = testWebhookSecret('crm current');
const PREVIOUS_SECRET = testWebhookSecret('crm previous');

let crm: FakeCrm;
let worker: TestWorker;

beforeAll(async () => {
  crm = await startFakeCrm({ secret: SECRET });
  worker = await createTestWorker({
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: SECRET,
    CRM_WEBHOOK_SECRET_PREVIOUS: PREVIOUS_SECRET,
    CRM_TIMEOUT_MS: '2000',
  });
});
afterAll(async () => {
  await worker.close();
  await crm.close();
});
// Tests count requests by delivery id: a request of an earlier test (one the worker gave up
// on after its timeout) may still arrive or be answered during a later one.
beforeEach(() => {
  crm.respondAfter(0);
  crm.verifyWith(SECRET);
});

/** What a receiver does with the `standardwebhooks` package: the parsed body, or a WebhookVerificationError. */
const verifiedBody = (secret: string, request: ReceivedWebhook) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

const deliveryRow = (id: number) => worker.db('crm_deliveries').where({ id }).first();
const enqueue = (lead: { leadId: number; crmDeliveryId: number }) =>
  worker.deps.queues.enqueue(deliverToCrmJob, { leadId: lead.leadId, deliveryId: lead.crmDeliveryId, event: 'lead.created' });
const crmJobState = (lead: { leadId: number; crmDeliveryId: number }) =>
  worker.deps.queues
    .queue('crm')
    .getJobState(deliverToCrmJob.jobId({ leadId: lead.leadId, deliveryId: lead.crmDeliveryId, event: 'lead.created' }));
const waitForStatus = (id: number, status: string) =>
  waitFor(async () => {
    const row = await deliveryRow(id);
    return row.status === status && row;
  }, { what: `CRM delivery ${id} to be ${status}` });

describe('crm queue', () => {
  it('retries a CRM that fails twice and records the delivery on the third try', async () => {
    crm.failNext(2, 503);
    const lead = await insertLead(worker.db, {
      nome: 'Anna',
      email: 'anna.bruno@example.it',
      utm_source: 'newsletter',
      landing_path: '/educazione-investimenti',
    });
    await enqueue(lead);

    const requests = await crm.waitForRequests(3, { deliveryId: lead.crmDeliveryId });
    expect(requests.map((r) => r.answered)).toEqual([503, 503, 200]);
    const row = await waitForStatus(lead.crmDeliveryId, 'delivered');
    expect(row).toMatchObject({ attempts: 3, response_status: 200, last_error: null });
    expect(row.delivered_at).toBeInstanceOf(Date);

    // Every attempt is signed afresh, under the same webhook-id: the receiver drops repeats by it.
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual(Array(3).fill(String(lead.crmDeliveryId)));
    expect(requests.map((r) => r.verified)).toEqual([true, true, true]);
    const last = requests[2]!;
    expect(last.headers['content-type']).toBe('application/json');
    expect(verifiedBody(SECRET, last)).toEqual(JSON.parse(last.body));

    expect(JSON.parse(last.body)).toMatchObject({
      id: lead.crmDeliveryId,
      event: 'lead.created',
      lead: {
        id: lead.leadId,
        nome: 'Anna',
        email: 'anna.bruno@example.it',
        telefono: lead.telefono,
        utmSource: 'newsletter',
        landingPath: '/educazione-investimenti',
        gdprConsent: true,
        marketingConsent: false,
        marketingConsentVersion: null,
        consentVersion: '1.0',
        repeatOf: null,
        heroVariant: null,
        // No marketing cookie consent recorded when it was sent (decision 049).
        adUserData: 'denied',
        adPersonalization: 'denied',
      },
    });
  });

  it('sends the first and last touch of the visit, the hero variant seen and the ad consent, as fields added to the lead', async () => {
    const lead = await insertLead(worker.db, {
      // Click ids are stored only with the ad consent granted (decision 049).
      ad_user_data: 'granted',
      ad_personalization: 'granted',
      landing_path: '/trading-automatico',
      hero_variant: 'c',
      utm_source: 'google',
      utm_campaign: 'autunno',
      utm_term: 'guida finanza',
      gclid: 'Cj0KCQiA-crm',
      referrer_host: 'www.google.com',
      first_utm_source: 'facebook',
      first_fbclid: 'IwAR0crm',
    });
    await enqueue(lead);
    await waitForStatus(lead.crmDeliveryId, 'delivered');
    const [sent] = crm.requestsFor(lead.crmDeliveryId);
    expect(JSON.parse(sent!.body).lead).toMatchObject({
      utmSource: 'google',
      utmMedium: null,
      utmCampaign: 'autunno',
      utmTerm: 'guida finanza',
      utmContent: null,
      gclid: 'Cj0KCQiA-crm',
      gbraid: null,
      wbraid: null,
      fbclid: null,
      msclkid: null,
      ttclid: null,
      referrerHost: 'www.google.com',
      firstTouch: { ...emptyTouch(), utmSource: 'facebook', fbclid: 'IwAR0crm' },
      landingPath: '/trading-automatico',
      heroVariant: 'c',
      adUserData: 'granted',
      adPersonalization: 'granted',
    });
  });

  it('tells the CRM about a given marketing consent and the version of its text', async () => {
    const lead = await insertLead(worker.db, { marketing_consent: true, marketing_consent_version: '2.0' });
    await enqueue(lead);
    await waitForStatus(lead.crmDeliveryId, 'delivered');
    const [sent] = crm.requestsFor(lead.crmDeliveryId);
    expect(JSON.parse(sent!.body).lead).toMatchObject({
      id: lead.leadId,
      gdprConsent: true,
      marketingConsent: true,
      marketingConsentVersion: '2.0',
      consentVersion: '1.0',
    });
  });

  it('sends lead.consent_withdrawn, signed like the others, with the consent no longer in force and the suppression', async () => {
    const lead = await insertLead(worker.db, {
      email: 'revocato@example.it',
      marketing_consent: true,
      marketing_consent_version: '1.0',
      marketing_consent_withdrawn_at: '2026-12-01T10:00:00Z',
    });
    await worker.db.transaction((trx) =>
      recordSuppression(trx, worker.config.SUPPRESSION_HASH_SECRET, [{ email: 'revocato@example.it', telefono: lead.telefono }], {
        source: 'email',
        refresh: true,
      }),
    );
    const [delivery] = await worker.db('crm_deliveries')
      .insert({ lead_id: lead.leadId, subject_lead_id: lead.leadId, event: 'lead.consent_withdrawn' })
      .returning<{ id: number }[]>('id');
    await worker.deps.queues.enqueue(deliverToCrmJob, { leadId: lead.leadId, deliveryId: delivery!.id, event: 'lead.consent_withdrawn' });

    await waitForStatus(delivery!.id, 'delivered');
    const [sent] = crm.requestsFor(delivery!.id);
    expect(sent!.verified).toBe(true);
    expect(sent!.headers['webhook-id']).toBe(String(delivery!.id));
    expect(sent!.headers['x-guida-event']).toBe('lead.consent_withdrawn');
    const body = verifiedBody(SECRET, sent!) as { event: string; lead: Record<string, unknown> };
    expect(body.event).toBe('lead.consent_withdrawn');
    expect(body.lead).toMatchObject({
      id: lead.leadId,
      email: 'revocato@example.it',
      marketingConsent: false,
      marketingConsentVersion: '1.0',
      marketingConsentWithdrawnAt: '2026-12-01T10:00:00.000Z',
      marketingSuppressed: true,
    });
    expect(Date.parse(body.lead.marketingSuppressedAt as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('tells the CRM that the email or phone of a new lead is suppressed, with the consent the new lead gave', async () => {
    const telefono = '+393479876501';
    await worker.db.transaction((trx) =>
      recordSuppression(trx, worker.config.SUPPRESSION_HASH_SECRET, [{ email: 'altro.indirizzo@example.it', telefono }], {
        source: 'admin',
        refresh: true,
      }),
    );
    const back = await insertLead(worker.db, { email: 'nuovo.indirizzo@example.it', telefono, marketing_consent: true, marketing_consent_version: '1.0' });
    const other = await insertLead(worker.db, { email: 'mai.revocato@example.it' });
    await Promise.all([enqueue(back), enqueue(other)]);
    await Promise.all([waitForStatus(back.crmDeliveryId, 'delivered'), waitForStatus(other.crmDeliveryId, 'delivered')]);
    const [sentBack] = crm.requestsFor(back.crmDeliveryId);
    expect(JSON.parse(sentBack!.body).lead).toMatchObject({
      marketingConsent: true,
      marketingConsentWithdrawnAt: null,
      marketingSuppressed: true,
      marketingSuppressedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const [sentOther] = crm.requestsFor(other.crmDeliveryId);
    expect(JSON.parse(sentOther!.body).lead).toMatchObject({ marketingSuppressed: false, marketingSuppressedAt: null });
  });

  it('names the first lead of a phone in a repeat within 24 hours', async () => {
    const first = await insertLead(worker.db);
    const repeat = await insertLead(worker.db, { repeat_of: first.leadId });
    await enqueue(repeat);
    await waitForStatus(repeat.crmDeliveryId, 'delivered');
    const [sent] = crm.requestsFor(repeat.crmDeliveryId);
    expect(JSON.parse(sent!.body).lead).toMatchObject({ id: repeat.leadId, repeatOf: first.leadId });
  });

  it('records a final failure without retrying when the CRM refuses the payload', async () => {
    crm.failNext(1, 422);
    const lead = await insertLead(worker.db);
    await enqueue(lead);
    const row = await waitForStatus(lead.crmDeliveryId, 'failed');
    expect(row).toMatchObject({ attempts: 1, response_status: 422, last_error: 'CRM answered HTTP 422' });
    // A retry would leave the job delayed or waiting; failed is final.
    await waitFor(async () => (await crmJobState(lead)) === 'failed', { what: 'the CRM job to fail for good' });
    expect(crm.requestsFor(lead.crmDeliveryId)).toHaveLength(1);
  });

  it('treats a timeout as transient', async () => {
    crm.respondAfter(2500);
    const lead = await insertLead(worker.db);
    await enqueue(lead);
    await waitFor(async () => (await deliveryRow(lead.crmDeliveryId)).status === 'retrying', { timeoutMs: 10_000 });
    crm.respondAfter(0);
    const row = await waitForStatus(lead.crmDeliveryId, 'delivered');
    expect(row.attempts).toBeGreaterThanOrEqual(2);
  });

  it('posts once when two runs of the same job overlap (a stalled job recovered mid-post)', async () => {
    crm.respondAfter(300);
    const lead = await insertLead(worker.db);
    const deliverToCrm = createDeliverToCrm(depsWith({ url: crm.url, secret: SECRET, timeoutMs: 2000 }));
    // The same job twice, as BullMQ hands it to a second worker when the first one's lock lapses.
    const run = () => deliverToCrm(jobFor(lead));

    const outcomes = await Promise.all([run(), run()]);
    expect(outcomes.sort()).toEqual(['delivered', 'skipped: already sending']);
    expect(crm.requestsFor(lead.crmDeliveryId)).toHaveLength(1);
    expect(await deliveryRow(lead.crmDeliveryId)).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 });
  });
});

describe('crm webhook signatures', () => {
  it('signs with both secrets during a change, so a receiver holding either one accepts', async () => {
    const lead = await insertLead(worker.db);
    await enqueue(lead);
    await waitForStatus(lead.crmDeliveryId, 'delivered');
    const [sent] = crm.requestsFor(lead.crmDeliveryId);
    expect(String(sent!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiedBody(SECRET, sent!)).toMatchObject({ id: lead.crmDeliveryId, lead: { id: lead.leadId } });
    expect(verifiedBody(PREVIOUS_SECRET, sent!)).toMatchObject({ id: lead.crmDeliveryId, lead: { id: lead.leadId } });
    expect(() => verifiedBody(testWebhookSecret('another secret'), sent!)).toThrow(WebhookVerificationError);

    // A receiver still on the previous secret takes real deliveries too.
    crm.verifyWith(PREVIOUS_SECRET);
    const later = await insertLead(worker.db);
    await enqueue(later);
    await waitForStatus(later.crmDeliveryId, 'delivered');
    expect(crm.requestsFor(later.crmDeliveryId).map((r) => r.verified)).toEqual([true]);
  });

  it('fails for good at a receiver holding neither secret (it answers 401)', async () => {
    crm.verifyWith(testWebhookSecret('a secret the worker never had'));
    const lead = await insertLead(worker.db);
    await enqueue(lead);
    const row = await waitForStatus(lead.crmDeliveryId, 'failed');
    expect(row).toMatchObject({ attempts: 1, response_status: 401 });
    expect(crm.requestsFor(lead.crmDeliveryId).map((r) => r.verified)).toEqual([false]);
  });

  it('sends the deprecated X-Guida headers of earlier releases, signed with the current secret', async () => {
    const lead = await insertLead(worker.db);
    await enqueue(lead);
    await waitForStatus(lead.crmDeliveryId, 'delivered');
    const [sent] = crm.requestsFor(lead.crmDeliveryId);
    expect(sent!.headers['x-guida-event']).toBe('lead.created');
    expect(sent!.headers['x-guida-delivery']).toBe(String(lead.crmDeliveryId));
    expect(sent!.headers['x-guida-timestamp']).toBe(sent!.headers['webhook-timestamp']);
    // What a receiver of an earlier release computes (docs/crm-webhook.md, deprecated).
    const expected = createHmac('sha256', SECRET).update(`${sent!.headers['x-guida-timestamp']}.${sent!.body}`).digest('hex');
    expect(sent!.headers['x-guida-signature']).toBe(`sha256=${expected}`);
  });

  it('signs with a secret of the old form (no whsec_) as its UTF-8 bytes, for one release', async () => {
    const oldSecret = 'crm-shared-secret-for-tests';
    crm.verifyWith(Buffer.from(oldSecret).toString('base64'));
    const deliverToCrm = createDeliverToCrm(depsWith({ url: crm.url, secret: oldSecret, timeoutMs: 2000 }));
    const lead = await insertLead(worker.db);
    expect(await deliverToCrm(jobFor(lead))).toBe('delivered');
    const [sent] = crm.requestsFor(lead.crmDeliveryId);
    expect(sent!.verified).toBe(true);
    const expected = createHmac('sha256', oldSecret).update(`${sent!.headers['x-guida-timestamp']}.${sent!.body}`).digest('hex');
    expect(sent!.headers['x-guida-signature']).toBe(`sha256=${expected}`);
  });

  it('warns at start about a secret of the old form, naming the variable and not the secret', () => {
    const oldSecret = 'crm-shared-secret-for-tests';
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = { ...worker.config, CRM_WEBHOOK_SECRET_PREVIOUS: oldSecret };
    crmQueue.processor({ ...worker.deps, config, logger: pino(sink), claimTimeouts: claimTimeouts(config) });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 40, variables: ['CRM_WEBHOOK_SECRET_PREVIOUS'], msg: expect.stringContaining('old form') }),
    ]);
    expect(lines.join('')).not.toContain(oldSecret);
  });

  it('lets a receiver on a secret of the old form move to a whsec_ secret without a gap', async () => {
    const oldSecret = 'crm-shared-secret-for-tests';
    const deliverToCrm = createDeliverToCrm(
      depsWith({ url: crm.url, secret: SECRET, previousSecret: oldSecret, timeoutMs: 2000 }),
    );
    crm.verifyWith(Buffer.from(oldSecret).toString('base64'));
    const before = await insertLead(worker.db);
    expect(await deliverToCrm(jobFor(before))).toBe('delivered');
    crm.verifyWith(SECRET);
    const after = await insertLead(worker.db);
    expect(await deliverToCrm(jobFor(after))).toBe('delivered');
    expect([...crm.requestsFor(before.crmDeliveryId), ...crm.requestsFor(after.crmDeliveryId)].map((r) => r.verified)).toEqual([
      true,
      true,
    ]);
  });
});

function depsWith(webhook: DeliverToCrmDeps['webhook']): DeliverToCrmDeps {
  return {
    db: worker.db,
    logger: worker.deps.logger,
    metrics: worker.deps.metrics,
    webhook,
    claimTimeoutMs: claimTimeouts(worker.config).crm,
    suppressionHashSecret: worker.config.SUPPRESSION_HASH_SECRET,
  };
}

/** The job the queue would run for a lead's lead.created delivery, run here without BullMQ. */
function jobFor(lead: { leadId: number; crmDeliveryId: number }) {
  const data = { leadId: lead.leadId, deliveryId: lead.crmDeliveryId, event: 'lead.created' };
  return new Job(worker.deps.queues.queue('crm'), deliverToCrmJob.name, data, { attempts: deliverToCrmJob.attempts });
}

describe('crm queue without a CRM configured', () => {
  it('marks the delivery skipped and sends nothing', async () => {
    const bare = await createTestWorker();
    try {
      const lead = await insertLead(bare.db);
      await bare.deps.queues.enqueue(deliverToCrmJob, {
        leadId: lead.leadId,
        deliveryId: lead.crmDeliveryId,
        event: 'lead.created',
      });
      const row = await waitFor(async () => {
        const found = await bare.db('crm_deliveries').where({ id: lead.crmDeliveryId }).first();
        return found.status === 'skipped' && found;
      });
      expect(row.last_error).toBe('CRM_WEBHOOK_URL not set');
    } finally {
      await bare.close();
    }
  });
});
