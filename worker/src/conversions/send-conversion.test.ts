import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSION_SKIP_REASONS, conversionEventId, listConversionsDue } from '@guida/shared/deliveries/conversion-uploads';
import { sendConversionJob, type ConversionEvent } from '@guida/shared/jobs/conversions';
import { recordSuppression } from '@guida/shared/server/marketing-suppression';
import { startFakeGraph, type FakeGraph } from '@guida/testing/fake-graph-server';
import { insertLead } from '@guida/testing/lead-fixture';
import { waitFor } from '@guida/testing/wait-for';
import { claimTimeouts } from '../claim-timeouts';
import { eraseLeads } from '../gdpr';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { META_GRAPH_API_VERSION } from './meta-capi-client';
import { sha256Hex } from './meta-event';
import { CONVERSION_INTERNAL_ERROR, createSendConversion } from './send-conversion';
import { createSweepConversions } from './sweep-conversions';

/**
 * The conversions queue against the real PostgreSQL and Redis and a Graph-compatible
 * server on 127.0.0.1 that checks each request as Meta documents it (fake-graph-server).
 */
const PIXEL = '1234567890123';
const TOKEN = 'EAAGm0PX4ZCpsBAKZBtestZBtokenZA1234567890';
const TEST_EVENT_CODE = 'TEST4321';
const USER_AGENT = 'Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 Chrome/140.0 Mobile Safari/537.36';
const DAY = 24 * 3600 * 1000;

let graph: FakeGraph;
let worker: TestWorker;

beforeAll(async () => {
  graph = await startFakeGraph({ version: META_GRAPH_API_VERSION, pixelId: PIXEL, accessToken: TOKEN });
  worker = await createTestWorker({
    META_PIXEL_ID: PIXEL,
    META_CAPI_ACCESS_TOKEN: TOKEN,
    META_GRAPH_API_URL: graph.url,
    META_TEST_EVENT_CODE: TEST_EVENT_CODE,
    CONVERSIONS_RETRY_BASE_MS: '20',
  });
});
afterAll(async () => {
  await worker?.close();
  await graph?.close();
});

/** A lead as the API stores it for a visitor who accepted the marketing cookies, with its Meta `lead` upload. */
async function consentingLead(overrides: Record<string, unknown> = {}) {
  const lead = await insertLead(worker.db, {
    email: 'Giulia.Verdi@Example.IT',
    ad_user_data: 'granted',
    ad_personalization: 'granted',
    fbclid: 'IwAR0conv',
    user_agent: USER_AGENT,
    landing_path: '/educazione-finanziaria',
    ...overrides,
  });
  return { ...lead, uploadId: await addUpload(lead.leadId, 'lead') };
}

async function addUpload(leadId: number, event: ConversionEvent) {
  const [row] = await worker.db('conversion_uploads')
    .insert({ lead_id: leadId, subject_lead_id: leadId, platform: 'meta', event, event_id: conversionEventId(leadId, event) })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

const uploadRow = (id: number) => worker.db('conversion_uploads').where({ id }).first();
const enqueue = (uploadId: number) => worker.deps.queues.enqueue(sendConversionJob, { uploadId });
const waitForStatus = (id: number, status: string) =>
  waitFor(async () => {
    const row = await uploadRow(id);
    return row?.status === status && row;
  }, { what: `conversion upload ${id} to be ${status}` });
const jobOf = (uploadId: number) => worker.deps.queues.queue('conversions').getJob(sendConversionJob.jobId({ uploadId }));
const sweep = (metaOn = true) =>
  createSweepConversions({
    db: worker.db,
    queues: worker.deps.queues,
    logger: worker.deps.logger,
    metaOn,
    graceMs: 0,
    claimTimeoutMs: claimTimeouts(worker.config).conversions,
  })();

async function counted(event: ConversionEvent, outcome: string) {
  const metric = worker.deps.metrics.registry.getSingleMetric('guida_conversion_uploads_total');
  const values = (await metric!.get()).values;
  return values.find((value) => value.labels.platform === 'meta' && value.labels.event === event && value.labels.outcome === outcome)?.value ?? 0;
}

describe('the Meta conversions', () => {
  it('post one Lead event for a consenting lead, shaped as Meta documents it, and record Meta’s answer', async () => {
    const before = await counted('lead', 'delivered');
    const lead = await consentingLead();
    await enqueue(lead.uploadId);

    const row = await waitForStatus(lead.uploadId, 'delivered');
    const [request] = graph.requestsFor(`lead-${lead.leadId}`);
    expect(graph.requestsFor(`lead-${lead.leadId}`)).toHaveLength(1);
    expect(request!.problems).toEqual([]);
    expect(request!.path).toBe(`/${META_GRAPH_API_VERSION}/${PIXEL}/events`);
    expect(request!.contentType).toBe('application/json');
    // The token travels in the body, never in the address.
    expect(request!.body).toMatchObject({ access_token: TOKEN, test_event_code: TEST_EVENT_CODE });
    expect(request!.path).not.toContain(TOKEN);

    const stored = await worker.db('ebook_requests').where({ id: lead.leadId }).first();
    expect(request!.body!.data).toEqual([
      {
        event_name: 'Lead',
        event_time: Math.floor(stored.created_at.getTime() / 1000),
        event_id: `lead-${lead.leadId}`,
        action_source: 'website',
        event_source_url: 'https://guida.example.it/educazione-finanziaria',
        user_data: {
          em: [sha256Hex('giulia.verdi@example.it')],
          ph: [sha256Hex(lead.telefono.slice(1))],
          fbc: `fb.1.${stored.created_at.getTime()}.IwAR0conv`,
          client_user_agent: USER_AGENT,
        },
      },
    ]);
    // No name, no plain contact, no (truncated) IP address.
    const body = JSON.stringify(request!.body);
    for (const personal of ['Mario', 'Rossi', 'giulia', lead.telefono, 'client_ip_address']) expect(body).not.toContain(personal);

    expect(row).toMatchObject({ attempts: 1, response_status: 200, last_error: null });
    expect(row.response_summary).toMatch(/^eventi ricevuti: 1 · fbtrace_id A[\w-]+$/);
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(await counted('lead', 'delivered')).toBe(before + 1);
  });

  it('retries Meta’s 500 and records the event on the third try, under the same event id', async () => {
    graph.failNext(2, 500);
    const lead = await consentingLead();
    await enqueue(lead.uploadId);
    const row = await waitForStatus(lead.uploadId, 'delivered');
    const requests = graph.requestsFor(`lead-${lead.leadId}`);
    expect(requests.map((request) => request.answered)).toEqual([500, 500, 200]);
    expect(row).toMatchObject({ attempts: 3, response_status: 200, last_error: null });
  });

  it('takes a 400 as final: one request, the upload failed with Meta’s error in short, the job failed', async () => {
    const before = await counted('lead', 'failed');
    graph.failNext(1, 400);
    const lead = await consentingLead();
    await enqueue(lead.uploadId);
    const row = await waitForStatus(lead.uploadId, 'failed');
    expect(row).toMatchObject({ attempts: 1, response_status: 400, last_error: 'Meta ha risposto HTTP 400: Invalid parameter' });
    expect(row.response_summary).toMatch(/^errore codice 100\/2804003 \(OAuthException\) · fbtrace_id A[\w-]+$/);
    await waitFor(async () => (await (await jobOf(lead.uploadId))?.getState()) === 'failed', { what: 'the job to fail' });
    expect(graph.requestsFor(`lead-${lead.leadId}`)).toHaveLength(1);
    expect(await counted('lead', 'failed')).toBe(before + 1);
  });

  it('sends nothing for a lead without the ad consent, withdrawn since, or whose contact is on the suppression list', async () => {
    const denied = await consentingLead({ ad_user_data: 'denied', ad_personalization: 'denied', fbclid: null });
    const withdrawn = await consentingLead({ marketing_consent_withdrawn_at: worker.db.fn.now() });
    const suppressed = await consentingLead();
    await worker.db.transaction((trx) =>
      recordSuppression(trx, worker.config.SUPPRESSION_HASH_SECRET, [{ email: 'altro@example.it', telefono: suppressed.telefono }], {
        source: 'email',
        refresh: true,
      }),
    );
    for (const lead of [denied, withdrawn, suppressed]) {
      await enqueue(lead.uploadId);
      expect(await waitForStatus(lead.uploadId, 'skipped')).toMatchObject({ attempts: 0, last_error: CONVERSION_SKIP_REASONS.noConsent });
      expect(graph.requestsFor(`lead-${lead.leadId}`)).toEqual([]);
    }

    // Verified since: none of them gets a verified upload.
    await worker.db('ebook_requests').whereIn('id', [denied.leadId, withdrawn.leadId]).update({ reachable_at: worker.db.fn.now() });
    await sweep();
    expect(await worker.db('conversion_uploads').whereIn('subject_lead_id', [denied.leadId, withdrawn.leadId]).where({ event: 'verified_lead' })).toEqual([]);
  });

  it('sends the verified event once, at the time the lead was first verified, and none for a lead verified too long ago', async () => {
    const lead = await consentingLead({ fbclid: null, first_fbclid: 'IwAR0first' });
    const reachableAt = new Date(Date.now() - 60_000);
    await worker.db('ebook_requests').where({ id: lead.leadId }).update({ reachable_at: reachableAt, engaged_at: new Date() });
    const old = await consentingLead();
    await worker.db('ebook_requests').where({ id: old.leadId }).update({ reachable_at: new Date(Date.now() - 8 * DAY) });

    await sweep();
    const verified = await waitFor(
      () => worker.db('conversion_uploads').where({ subject_lead_id: lead.leadId, event: 'verified_lead' }).first(),
      { what: 'the verified upload' },
    );
    expect(verified).toMatchObject({ platform: 'meta', event_id: `lead-${lead.leadId}-verified`, lead_id: lead.leadId });
    await waitForStatus(verified.id, 'delivered');
    const [request] = await graph.waitForRequests(1, `lead-${lead.leadId}-verified`);
    expect(request!.problems).toEqual([]);
    expect(request!.body!.data).toEqual([
      expect.objectContaining({
        event_name: 'LeadVerified',
        event_time: Math.floor(reachableAt.getTime() / 1000),
        event_id: `lead-${lead.leadId}-verified`,
        user_data: expect.objectContaining({ fbc: expect.stringMatching(/^fb\.1\.\d{13}\.IwAR0first$/) }),
      }),
    ]);

    await sweep();
    expect(await worker.db('conversion_uploads').where({ subject_lead_id: lead.leadId, event: 'verified_lead' })).toHaveLength(1);
    expect(await worker.db('conversion_uploads').where({ subject_lead_id: old.leadId, event: 'verified_lead' })).toEqual([]);
    expect(graph.requestsFor(`lead-${lead.leadId}-verified`)).toHaveLength(1);
  });

  it('skips an event older than Meta takes, and the uploads of an erased lead, which keep its id', async () => {
    const stale = await consentingLead({ created_at: new Date(Date.now() - 8 * DAY) });
    await enqueue(stale.uploadId);
    expect(await waitForStatus(stale.uploadId, 'skipped')).toMatchObject({ last_error: CONVERSION_SKIP_REASONS.tooOld });

    const erased = await consentingLead();
    await worker.db.transaction((trx) =>
      eraseLeads(trx, [{ id: erased.leadId, email: 'giulia.verdi@example.it', telefono: erased.telefono }], { reason: 'request' }),
    );
    expect(await uploadRow(erased.uploadId)).toMatchObject({
      lead_id: null,
      subject_lead_id: erased.leadId,
      status: 'skipped',
      last_error: CONVERSION_SKIP_REASONS.erased,
    });
    await enqueue(erased.uploadId);
    await waitFor(async () => (await (await jobOf(erased.uploadId))?.getState()) === 'completed', { what: 'the job to end' });
    expect(await uploadRow(erased.uploadId)).toMatchObject({ status: 'skipped', attempts: 0 });
    expect([...graph.requestsFor(`lead-${stale.leadId}`), ...graph.requestsFor(`lead-${erased.leadId}`)]).toEqual([]);
  });

  it('skips an upload a stopped worker left claimed once the lead withdrew: nothing posted, never swept again', async () => {
    const before = await counted('lead', 'skipped');
    const lead = await consentingLead({ marketing_consent_withdrawn_at: worker.db.fn.now() });
    const claimTimeoutMs = claimTimeouts(worker.config).conversions;
    await worker.db('conversion_uploads')
      .where({ id: lead.uploadId })
      .update({ status: 'sending', attempts: 1, updated_at: new Date(Date.now() - claimTimeoutMs - 60_000) });

    expect(await sweep()).toMatchObject({ abandoned: expect.any(Number) });
    expect(await waitForStatus(lead.uploadId, 'skipped')).toMatchObject({ attempts: 1, last_error: CONVERSION_SKIP_REASONS.noConsent });
    expect(graph.requestsFor(`lead-${lead.leadId}`)).toEqual([]);
    expect(await counted('lead', 'skipped')).toBe(before + 1);

    await waitFor(async () => (await (await jobOf(lead.uploadId))?.getState()) === 'completed', { what: 'the job to end' });
    const due = await listConversionsDue(worker.db, 'meta', { graceMs: 0, claimTimeoutMs, limit: 10_000 });
    expect(due.map((upload) => upload.uploadId)).not.toContain(lead.uploadId);
    await sweep();
    expect(await uploadRow(lead.uploadId)).toMatchObject({ status: 'skipped' });
    expect(graph.requestsFor(`lead-${lead.leadId}`)).toEqual([]);
  });

  it('skips with an erasure an upload a worker claimed', async () => {
    const lead = await consentingLead();
    await worker.db('conversion_uploads').where({ id: lead.uploadId }).update({ status: 'sending', attempts: 1 });
    await worker.db.transaction((trx) =>
      eraseLeads(trx, [{ id: lead.leadId, email: 'giulia.verdi@example.it', telefono: lead.telefono }], { reason: 'request' }),
    );
    expect(await uploadRow(lead.uploadId)).toMatchObject({ lead_id: null, status: 'skipped', last_error: CONVERSION_SKIP_REASONS.erased });
  });

  it('shows the admin an Italian text for a failure inside the worker, and retries it', async () => {
    const lead = await consentingLead();
    // A real database failure while the answer is recorded (a trigger on this upload only).
    await worker.db.raw(`CREATE FUNCTION refuse_delivered() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$`);
    await worker.db.raw(
      `CREATE TRIGGER refuse_delivered BEFORE UPDATE ON conversion_uploads FOR EACH ROW
       WHEN (NEW.id = ${lead.uploadId} AND NEW.status = 'delivered') EXECUTE FUNCTION refuse_delivered()`,
    );
    try {
      await enqueue(lead.uploadId);
      const row = await waitFor(async () => {
        const current = await uploadRow(lead.uploadId);
        return current?.last_error === CONVERSION_INTERNAL_ERROR && current;
      }, { what: 'the internal error to be recorded' });
      expect(row).toMatchObject({ response_status: null, response_summary: null });
      expect(row.last_error).not.toMatch(/space|device/);
    } finally {
      await worker.db.raw('DROP TRIGGER refuse_delivered ON conversion_uploads');
      await worker.db.raw('DROP FUNCTION refuse_delivered()');
    }
    expect(await waitForStatus(lead.uploadId, 'delivered')).toMatchObject({ last_error: null });
  });

  it('enqueues again an upload whose job was lost, and skips every upload while Meta is not configured', async () => {
    const lost = await consentingLead();
    expect(await sweep()).toMatchObject({ due: expect.any(Number) });
    await waitForStatus(lost.uploadId, 'delivered');

    const off = await consentingLead();
    const send = createSendConversion({
      db: worker.db,
      logger: worker.deps.logger,
      metrics: worker.deps.metrics,
      meta: null,
      claimTimeoutMs: claimTimeouts(worker.config).conversions,
      suppressionHashSecret: worker.config.SUPPRESSION_HASH_SECRET,
      now: () => new Date(),
    });
    const job = { data: { uploadId: off.uploadId }, attemptsMade: 0, opts: { attempts: 10 } } as unknown as Job;
    expect(await send(job)).toBe(`skipped: ${CONVERSION_SKIP_REASONS.notConfigured}`);
    expect(await uploadRow(off.uploadId)).toMatchObject({ status: 'skipped', attempts: 0, last_error: CONVERSION_SKIP_REASONS.notConfigured });
    expect(graph.requestsFor(`lead-${off.leadId}`)).toEqual([]);

    // Off, the sweep creates no verified upload that would only be skipped.
    const verified = await consentingLead();
    await worker.db('ebook_requests').where({ id: verified.leadId }).update({ reachable_at: new Date() });
    await sweep(false);
    expect(await worker.db('conversion_uploads').where({ subject_lead_id: verified.leadId, event: 'verified_lead' })).toEqual([]);
  });
});
