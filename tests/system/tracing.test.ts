/**
 * OpenTelemetry traces with the real processes (decision 057): the bundled API and worker
 * export to a local OTLP/HTTP receiver, and one trace follows a lead from the form's
 * request through the queue to the Twilio call and the CRM post, without personal data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@guida/testing/otlp-receiver';
import { postLead } from '@guida/testing/post-lead';
import { processEnv, runProcess, startApi, startWorker, type RunningProcess } from '@guida/testing/processes';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';

let database: TestDatabase;
let twilio: FakeTwilio;
let crm: FakeCrm;
let receiver: OtlpReceiver;
let api: RunningProcess;
let worker: RunningProcess;
let baseUrl: string;
let env: Record<string, string>;
const prefix = uniquePrefix('tracing');
const CRM_SECRET = testWebhookSecret('tracing test CRM');

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

beforeAll(async () => {
  [database, twilio, crm, receiver] = await Promise.all([
    createTestDatabase(),
    startFakeTwilio(),
    startFakeCrm({ secret: CRM_SECRET }),
    startOtlpReceiver(),
  ]);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    ...processEnv({ port, databaseUrl: database.url, redisKeyPrefix: prefix }),
    ...twilio.env,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  };
  [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await Promise.all([twilio.close(), crm.close(), receiver.close()]);
  await deleteRedisKeys(prefix);
  await database.drop();
});

/** The one span of `trace` that `match` picks, or undefined while there is none. */
const spanOf = (trace: string, match: (span: ReceivedSpan) => boolean) =>
  receiver.spans.find((span) => span.traceId === trace && match(span));

describe('a traced lead', () => {
  const lead = { nome: 'Ottavia', cognome: 'Trapani', email: 'ottavia.trapani@example.it', telefono: '+39 347 700 0457' };

  it('is one trace from the API request through the queue to the Twilio call and the CRM post', async () => {
    const created = await postLead(baseUrl, { ebookType: 'investment-education', ...lead });
    expect(created.status).toBe(201);
    await twilio.waitForMessages(1);
    await crm.waitForRequests(1);

    // Spans leave in batches (every 5 s by default).
    const request = await waitFor(
      () => receiver.spans.find((span) => span.service === 'guida-api' && span.kind === SERVER && span.attributes['http.route'] === '/api/ebook-request'),
      { what: 'the API request span', timeoutMs: 20_000 },
    );
    expect(request.name).toBe('POST /api/ebook-request');
    expect(request.parentSpanId).toBe('');
    const trace = request.traceId;

    const sms = await waitFor(() => spanOf(trace, (span) => span.service === 'guida-worker' && span.name === 'process sms'), {
      what: 'the SMS job span in the request trace',
      timeoutMs: 20_000,
    });
    expect(sms).toMatchObject({ kind: CONSUMER, parentSpanId: request.spanId });
    expect(sms.attributes).toMatchObject({ 'messaging.system': 'bullmq', 'messaging.destination.name': 'sms', 'guida.job.name': 'send-guide-sms' });
    const twilioCall = await waitFor(() => spanOf(trace, (span) => span.kind === CLIENT && span.parentSpanId === sms.spanId), {
      what: 'the Twilio call under the SMS span',
      timeoutMs: 20_000,
    });
    expect(twilioCall.attributes['http.method'] ?? twilioCall.attributes['http.request.method']).toBe('POST');
    expect(twilioCall.attributes['http.status_code'] ?? twilioCall.attributes['http.response.status_code']).toBeLessThan(300);

    const crmJob = await waitFor(() => spanOf(trace, (span) => span.service === 'guida-worker' && span.name === 'process crm'), {
      what: 'the CRM job span in the request trace',
      timeoutMs: 20_000,
    });
    expect(crmJob).toMatchObject({ kind: CONSUMER, parentSpanId: request.spanId });
    const crmPost = await waitFor(() => spanOf(trace, (span) => span.kind === CLIENT && span.parentSpanId === crmJob.spanId), {
      what: 'the CRM post under the CRM span',
      timeoutMs: 20_000,
    });
    expect(crmPost.attributes['http.status_code'] ?? crmPost.attributes['http.response.status_code']).toBe(200);
  });

  it('exports no personal data, raw path, query or client address', () => {
    const exported = receiver.bodies.join('\n');
    expect(exported).toContain('/api/ebook-request');
    for (const personal of [lead.nome, lead.cognome, lead.email, '3477000457', '347 700 0457']) {
      expect(exported).not.toContain(personal);
    }
    const keys = new Set(receiver.spans.flatMap((span) => Object.keys(span.attributes)));
    for (const raw of ['http.target', 'http.url', 'url.full', 'url.path', 'url.query', 'net.peer.ip', 'client.address', 'http.user_agent']) {
      expect(keys).not.toContain(raw);
    }
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT and SENTRY_DSN', () => {
  it('loads neither SDK', async () => {
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _traced, ...untraced } = env;
    const port = String(await freePort());
    const probe = 'testing/src/loaded-packages-probe.mjs';
    const quiet = runProcess(process.execPath, ['--import', `./${probe}`, 'api/dist/server.js'], {
      ...untraced,
      PORT: port,
      CHALLENGE_MODE: 'off',
      PROBED_PACKAGES: '^@(opentelemetry|sentry)/',
    });
    await waitFor(
      async () => {
        // The probe needs Node's module hooks (Node 24, as npm test runs it).
        if (quiet.child.exitCode !== null) throw new Error(`api exited early:\n${quiet.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok;
      },
      { what: 'the api to be ready', timeoutMs: 25_000 },
    );
    expect(await quiet.stop()).toBe(0);
    // The API alone, which every process loads anyway (prom-client uses it): no SDK, no exporter.
    expect(quiet.output()).toContain('loaded packages: ["@opentelemetry/api"]');
  });
});
