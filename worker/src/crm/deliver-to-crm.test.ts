import { Job } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { startFakeCrm, type FakeCrm } from '@guida/testing/fake-crm-server';
import { waitFor } from '@guida/testing/wait-for';
import { insertLead } from '@guida/testing/lead-fixture';
import { claimTimeouts } from '../claim-timeouts';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { signCrmBody } from './crm-webhook-client';
import { createDeliverToCrm } from './deliver-to-crm';

const SECRET = 'crm-shared-secret-for-tests';

let crm: FakeCrm;
let worker: TestWorker;

beforeAll(async () => {
  crm = await startFakeCrm();
  worker = await createTestWorker({ CRM_WEBHOOK_URL: crm.url, CRM_WEBHOOK_SECRET: SECRET, CRM_TIMEOUT_MS: '2000' });
});
afterAll(async () => {
  await worker.close();
  await crm.close();
});
// Tests count requests by delivery id: a request of an earlier test (one the worker gave up
// on after its timeout) may still arrive or be answered during a later one.
beforeEach(() => {
  crm.respondAfter(0);
});

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

    const last = requests[2]!;
    expect(last.headers['content-type']).toBe('application/json');
    expect(last.headers['x-guida-event']).toBe('lead.created');
    expect(last.headers['x-guida-delivery']).toBe(String(lead.crmDeliveryId));
    const timestamp = Number(last.headers['x-guida-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(last.headers['x-guida-signature']).toBe(signCrmBody(SECRET, timestamp, last.body));

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
      },
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
    const deliverToCrm = createDeliverToCrm({
      db: worker.db,
      logger: worker.deps.logger,
      webhook: { url: crm.url, secret: SECRET, timeoutMs: 2000 },
      claimTimeoutMs: claimTimeouts(worker.config).crm,
    });
    // The same job twice, as BullMQ hands it to a second worker when the first one's lock lapses.
    const data = { leadId: lead.leadId, deliveryId: lead.crmDeliveryId, event: 'lead.created' };
    const run = () =>
      deliverToCrm(new Job(worker.deps.queues.queue('crm'), deliverToCrmJob.name, data, { attempts: deliverToCrmJob.attempts }));

    const outcomes = await Promise.all([run(), run()]);
    expect(outcomes.sort()).toEqual(['delivered', 'skipped: already sending']);
    expect(crm.requestsFor(lead.crmDeliveryId)).toHaveLength(1);
    expect(await deliveryRow(lead.crmDeliveryId)).toMatchObject({ status: 'delivered', attempts: 1, response_status: 200 });
  });
});

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
