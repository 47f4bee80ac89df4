/**
 * Prometheus metrics and the worker's health check, with the real processes: leads posted
 * to the bundled API (two processes on one port), SMS sent by the bundled worker through
 * the local Twilio-compatible server, delivery reports back to the API, then both
 * /metrics read with the token. Then who may read them, and what /health says when the
 * worker cannot reach Redis or PostgreSQL.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@guida/shared/jobs/definition';
import { HONEYPOT_FIELD } from '@guida/shared/lead-rules';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startFakeTwilio, TWILIO_ERRORS, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { postLead as postLeadTo } from '@guida/testing/post-lead';
import { processEnv, runBundled, startApi, startWorker, type RunningProcess } from '@guida/testing/processes';
import { parsePrometheusText } from '@guida/testing/prometheus-text';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';

const METRICS_TOKEN = 'system-test-metrics-token-0123456789';
const CRM_SECRET = testWebhookSecret('metrics test CRM');

let database: TestDatabase;
let twilio: FakeTwilio;
let crm: FakeCrm;
let api: RunningProcess;
let worker: RunningProcess & { metricsUrl: string };
let baseUrl: string;
let env: Record<string, string>;
const prefix = uniquePrefix('metrics');
const otherPrefixes: string[] = [];
const started: RunningProcess[] = [];

beforeAll(async () => {
  [database, twilio, crm] = await Promise.all([createTestDatabase(), startFakeTwilio(), startFakeCrm({ secret: CRM_SECRET })]);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    ...processEnv({ port, databaseUrl: database.url, redisKeyPrefix: prefix }),
    ...twilio.env,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
    SMS_RETRY_BASE_MS: '50',
    CRM_RETRY_BASE_MS: '50',
    EMAIL_RETRY_BASE_MS: '50',
    SHUTDOWN_GRACE_MS: '2000',
    METRICS_TOKEN,
  };
  [api, worker] = await Promise.all([startApi({ ...env, WEB_CONCURRENCY: '2' }), startWorker(env)]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop(), ...started.map((process) => process.stop())]);
  await Promise.all([twilio.close(), crm.close()]);
  await Promise.all([prefix, ...otherPrefixes].map((name) => deleteRedisKeys(name)));
  await database.drop();
});

/**
 * GET over a connection of its own: node:cluster hands each new connection to the next
 * API process, so successive scrapes reach both.
 */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The worker's health answer, status and body (a fresh process may still be connecting). */
async function health(workerUrl: string) {
  const response = await get(`${workerUrl}/health`);
  return { status: response.status, body: JSON.parse(response.body) as unknown };
}

const HEALTHY = { status: 200, body: { status: 'ok', checks: { redis: 'ok', postgres: 'ok' } } };

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function scrape(url: string) {
  const response = await get(`${url}/metrics`, bearer(METRICS_TOKEN));
  expect(response.status, response.body).toBe(200);
  return parsePrometheusText(response.body);
}

const postLead = (lead: Record<string, unknown>) =>
  postLeadTo(baseUrl, { nome: 'Giulia', email: 'giulia@example.it', ebookType: 'general', ...lead });

describe('metrics after real traffic', () => {
  it('count leads, SMS, delivery reports and CRM failures, time the SMS, and show every queue', async () => {
    // One SMS the provider refuses for good, one CRM post that fails once.
    twilio.failNext(TWILIO_ERRORS.invalidTo);
    crm.failNext(1, 503);

    const accepted: number[] = [];
    for (let index = 1; index <= 4; index += 1) {
      const created = await postLead({ telefono: `+39 347 720 000${index}` });
      expect(created.status).toBe(201);
      accepted.push(created.body.id);
    }
    expect((await postLead({ telefono: '+39 347 720 0009', email: 'non è un indirizzo' })).status).toBe(400);
    expect((await postLead({ telefono: '+39 347 720 0008', [HONEYPOT_FIELD]: 'https://spam.example' })).status).toBe(400);

    const messages = await twilio.waitForMessages(3);
    const smsRows = () => database.db('sms_messages').whereIn('lead_id', accepted).select('status');
    await waitFor(async () => {
      const statuses = (await smsRows()).map((row) => row.status).sort();
      return statuses.join() === 'failed,sent,sent,sent';
    }, { what: 'three SMS sent and one refused' });
    expect(await twilio.sendStatusCallback(messages[0]!.sid, 'delivered')).toBe(204);
    expect(await twilio.sendStatusCallback(messages[1]!.sid, 'delivered')).toBe(204);
    expect(await twilio.sendStatusCallback(messages[2]!.sid, 'undelivered', '30003')).toBe(204);
    await waitFor(async () => {
      const deliveries = await database.db('crm_deliveries').whereIn('lead_id', accepted).select('event', 'status');
      const delivered = (event: string) => deliveries.filter((row) => row.event === event && row.status === 'delivered').length;
      return deliveries.length === 6 && delivered('lead.created') === 4 && delivered('lead.sms_delivered') === 2;
    }, { what: 'the four leads and their two delivered SMS (decision 059) told to the CRM' });

    // Each scrape reaches one of the two API processes, and shows the sum of both.
    for (let scrapeNumber = 0; scrapeNumber < 4; scrapeNumber += 1) {
      const metrics = await scrape(baseUrl);
      expect(metrics.value('guida_leads_accepted_total')).toBe(4);
      expect(metrics.value('guida_leads_refused_total', { reason: 'validation_failed' })).toBe(1);
      expect(metrics.value('guida_leads_refused_total', { reason: 'honeypot' })).toBe(1);
      expect(metrics.value('guida_sms_provider_reports_total', { status: 'delivered' })).toBe(2);
      expect(metrics.value('guida_sms_provider_reports_total', { status: 'undelivered' })).toBe(1);
      expect(metrics.value('guida_sms_lead_to_delivered_seconds_count')).toBe(2);
      expect(metrics.value('guida_sms_lead_to_delivered_seconds_bucket', { le: '+Inf' })).toBe(2);
      expect(metrics.value('guida_sms_lead_to_delivered_seconds_sum')).toBeGreaterThan(0);
    }

    const metrics = await scrape(worker.metricsUrl);
    expect(metrics.value('guida_sms_sent_total')).toBe(3);
    expect(metrics.value('guida_sms_failed_total', { reason: 'permanent', final: 'true' })).toBe(1);
    expect(metrics.value('guida_sms_lead_to_provider_seconds_count')).toBe(3);
    expect(metrics.value('guida_sms_lead_to_provider_seconds_sum')).toBeGreaterThan(0);
    // Within the 2-minute promise, as a bucket the alert reads.
    expect(metrics.value('guida_sms_lead_to_provider_seconds_bucket', { le: '120' })).toBe(3);
    expect(metrics.value('guida_crm_delivery_failures_total', { final: 'false' })).toBe(1);
    for (const queue of QUEUE_NAMES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(metrics.value('guida_queue_jobs', { queue, state }), `${queue} ${state}`).toBeGreaterThanOrEqual(0);
      }
      expect(metrics.value('guida_queue_oldest_waiting_job_age_seconds', { queue })).toBeGreaterThanOrEqual(0);
    }
    // The SMS refused for good is a failed job of the sms queue.
    expect(metrics.value('guida_queue_jobs', { queue: 'sms', state: 'failed' })).toBe(1);
    for (const state of ['total', 'lag', 'pending']) {
      expect(metrics.value('guida_analytics_stream_entries', { state })).toBeGreaterThanOrEqual(0);
    }
    expect(metrics.value('guida_analytics_dead_letters_total')).toBe(0);
    expect(metrics.value('guida_worker_dependency_up', { dependency: 'redis' })).toBe(1);
    expect(metrics.value('guida_worker_dependency_up', { dependency: 'postgres' })).toBe(1);
  });
});

describe('who may read the metrics', () => {
  it('answers only the bearer token, on the API and on the worker', async () => {
    for (const url of [baseUrl, worker.metricsUrl]) {
      expect((await get(`${url}/metrics`)).status, url).toBe(401);
      expect((await get(`${url}/metrics`, bearer('system-test-metrics-token-0123456788'))).status, url).toBe(401);
      expect((await get(`${url}/metrics`, { Authorization: METRICS_TOKEN })).status, url).toBe(401);
      expect((await get(`${url}/metrics`, bearer(METRICS_TOKEN))).status, url).toBe(200);
    }
  });

  it('has no metrics endpoint without METRICS_TOKEN', async () => {
    const { METRICS_TOKEN: _token, ...withoutToken } = env;
    const port = await freePort();
    const otherApi = await startApi({ ...withoutToken, PORT: String(port) });
    started.push(otherApi);
    const otherPrefix = uniquePrefix('metrics-off');
    otherPrefixes.push(otherPrefix);
    const otherWorker = await startWorker({ ...withoutToken, REDIS_KEY_PREFIX: otherPrefix });
    started.push(otherWorker);
    expect((await get(`http://127.0.0.1:${port}/metrics`, bearer(METRICS_TOKEN))).status).toBe(404);
    expect((await get(`${otherWorker.metricsUrl}/metrics`, bearer(METRICS_TOKEN))).status).toBe(404);
    // The health check needs no token.
    await expect.poll(() => health(otherWorker.metricsUrl)).toEqual(HEALTHY);
  });
});

describe('the worker health check', () => {
  it('answers 200 when the worker reaches Redis and PostgreSQL', async () => {
    expect(await health(worker.metricsUrl)).toEqual(HEALTHY);
  });

  it('answers 503 naming Redis when Redis cannot be reached', async () => {
    const closedPort = await freePort();
    const cut = await startWorker({ ...env, REDIS_URL: `redis://127.0.0.1:${closedPort}`, SHUTDOWN_GRACE_MS: '1000' });
    started.push(cut);
    await expect
      .poll(() => health(cut.metricsUrl))
      .toEqual({ status: 503, body: { status: 'unavailable', checks: { redis: 'unavailable', postgres: 'ok' } } });
    // Its metrics still answer, without the figures that live in Redis.
    const metrics = await scrape(cut.metricsUrl);
    expect(metrics.value('guida_worker_dependency_up', { dependency: 'redis' })).toBe(0);
    expect(metrics.all('guida_queue_jobs')).toEqual([]);
    expect(metrics.value('guida_analytics_dead_letters_total')).toBeUndefined();
  });

  it('answers 503 naming PostgreSQL when PostgreSQL cannot be reached', async () => {
    const closedPort = await freePort();
    const otherPrefix = uniquePrefix('metrics-nodb');
    otherPrefixes.push(otherPrefix);
    const cut = await startWorker({
      ...env,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/guida`,
      REDIS_KEY_PREFIX: otherPrefix,
      SHUTDOWN_GRACE_MS: '1000',
    });
    started.push(cut);
    await expect
      .poll(() => health(cut.metricsUrl))
      .toEqual({ status: 503, body: { status: 'unavailable', checks: { redis: 'ok', postgres: 'unavailable' } } });
    const metrics = await scrape(cut.metricsUrl);
    expect(metrics.value('guida_worker_dependency_up', { dependency: 'postgres' })).toBe(0);
  });

  it('refuses to start when its port is taken', async () => {
    const taken = new URL(worker.metricsUrl).port;
    const second = runBundled('worker/dist/index.js', { ...env, WORKER_METRICS_PORT: taken });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('worker could not listen on WORKER_METRICS_PORT');
  });
});
