/**
 * Lead intake benchmark (`npm run bench:leads`). The bundled API and worker run as real
 * processes on a database of their own; the worker sends every SMS with the real twilio
 * client to a local Twilio-compatible server. Measures the whole product end to end as
 * `npm start` runs it (default configuration, status callbacks included; reported first),
 * a fixed 500 req/s, the maximum rate, the time from 201 to the SMS for a burst of 2,000
 * leads, and the Redis rate limiter on its own; prints a table and writes
 * bench/results/leads-*.json. BENCH_LEADS_ONLY=end-to-end runs only the end-to-end part.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Queue } from 'bullmq';
import pg from 'pg';
import { createRedis } from '@guida/shared/server/redis';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { waitFor } from '@guida/testing/wait-for';
import { createRateLimit } from '../api/src/http/rate-limit';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../scripts/lib/defaults.mjs';
import { ROOT } from '../scripts/lib/output.mjs';
import {
  benchLog,
  cpuMeter,
  deleteKeys,
  isolatedEnv,
  localUrl,
  machineFacts,
  npmStartConfiguration,
  number,
  onCleanUp,
  percentile,
  printCpu,
  recreateDatabase,
  round,
  runBenchmark,
  serviceCrashed,
  startService,
  stopService,
  stopServices,
  type CpuCores,
  verdict,
  waitForReady,
  withDatabase,
  writeResults,
  SMS_BUDGETS_LIFTED,
} from './bench-support';

const SETTINGS = {
  warmup: { seconds: 5, rate: 500, connections: 50 },
  fixedRate: { seconds: 20, rate: 500, connections: 50 },
  maximum: { seconds: 20, connections: 100 },
  /** The express + PostgreSQL yardstick (bench/reference-server.mjs). */
  reference: { seconds: 10, connections: 50 },
  burst: { leads: 2_000, concurrency: 100, smsWaitSeconds: 120 },
  /** The worker starts after phase B with a backlog of about 30,000 SMS to send. */
  drainWaitSeconds: 300,
  rateLimit: { ops: 20_000, concurrency: 50, sequentialOps: 2_000 },
  /**
   * The product as `npm start` runs it: leads at maximum for `seconds`, then up to
   * `drainWaitSeconds` until every SMS is delivered. The fake Twilio calls back `sent`,
   * then `delivered`, each half a second after the previous answer (Twilio takes seconds).
   */
  endToEnd: {
    warmupLeads: 50,
    seconds: 20,
    connections: 100,
    drainWaitSeconds: 120,
    statusCallbacks: { delayMs: 500, concurrency: 64 },
  },
  runLimitMinutes: 10,
};

const BARS = {
  leadsPerSecondAtMaximum: 1_000,
  p99MsAt500: 50,
  timeToSmsP99Ms: 5_000,
};

const BENCH_DATABASE = 'guida_bench';
const DATABASE_SERVER_URL = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL || DEFAULT_REDIS_URL;
/** The highest values the API and worker configurations accept. */
const MAX_LEAD_RATE_LIMIT = 10_000_000;
const CHALLENGE_NEVER_REACHED = { CHALLENGE_CLIENT_THRESHOLD: '10000000', CHALLENGE_GLOBAL_THRESHOLD: '100000000' };
const MAX_SMS_RATE_PER_SECOND = 10_000;
const WORKER_CONCURRENCY = 100;
/**
 * One API process per core, as an API machine runs it (WEB_CONCURRENCY, decision 020);
 * BENCH_API_PROCESSES sets another count to compare.
 */
const API_PROCESSES = Number(process.env.BENCH_API_PROCESSES) || os.availableParallelism();

const log = benchLog('leads');
const withCpu = cpuMeter(BENCH_DATABASE, REDIS_URL);

/* -------------------------------- load --------------------------------- */

let phoneCounter = 0;
/** A new phone per request: a phone seen in the last 24 h is stored as a repeat, with no SMS. */
const nextPhone = () => `+39347${String(phoneCounter++).padStart(7, '0')}`;

const leadBody = (telefono: string) =>
  JSON.stringify({
    nome: 'Giulia',
    cognome: 'Bianchi',
    email: `bench${telefono.slice(1)}@example.com`,
    telefono,
    gdprConsent: true,
    ebookType: 'general',
    source: 'bench',
    utmSource: 'bench',
    utmMedium: 'load-test',
    utmCampaign: 'leads',
    landingPath: '/',
  });

/** Ids of every lead answered 201, to check afterwards that each one is stored. */
const answeredLeadIds: number[] = [];

function recordCreated(body: string) {
  const { id } = JSON.parse(body) as { id: number };
  answeredLeadIds.push(id);
}

interface LoadPhase {
  connections: number;
  targetRate: number | null;
  durationSeconds: number;
  requestsPerSecondMean: number;
  leadsCreated: number;
  leadsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

let addressCounter = 0;
/**
 * A new visitor address per lead, passed as a proxy does: the API trusts X-Forwarded-For
 * from loopback (TRUST_PROXY's default), so the per-IP limit keeps its default of 60 an hour.
 */
const nextClientAddress = () => {
  const n = addressCounter++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/**
 * As many requests as the connections can carry (autocannon, one in flight per connection);
 * with `clientAddresses`, each lead comes from an address of its own.
 */
async function maximumPhase(apiUrl: string, options: { seconds: number; connections: number; clientAddresses?: boolean }) {
  const result = await autocannon({
    url: `${apiUrl}/api/ebook-request`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: leadBody(nextPhone()),
          ...(options.clientAddresses
            ? { headers: { ...request.headers, 'x-forwarded-for': nextClientAddress() } }
            : {}),
        }),
        onResponse: (status, body) => {
          if (status === 201) recordCreated(body);
        },
      },
    ],
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  const created = statusCodes['201'] ?? 0;
  return {
    connections: options.connections,
    targetRate: null,
    durationSeconds: result.duration,
    requestsPerSecondMean: round(result.requests.average, 1),
    leadsCreated: created,
    leadsPerSecond: round(created / result.duration, 1),
    latencyMs: {
      mean: round(result.latency.mean, 2),
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statusCodes,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  } satisfies LoadPhase;
}

/**
 * A steady arrival rate: one request every 1000/rate ms, each timed from the moment it was
 * due (a request waiting for a free connection counts as waiting), so a slow answer cannot
 * hide the requests it delayed. autocannon's rate mode is not used here: each of its
 * connections sends its share of the second back to back at the start of the second, so
 * "500 req/s" arrives as 50 busy connections for a third of a second, then nothing.
 */
async function pacedPhase(apiUrl: string, options: { seconds: number; connections: number; rate: number }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL('/api/ebook-request', apiUrl);
  const intervalMs = 1000 / options.rate;
  const total = Math.round(options.seconds * options.rate);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();

  const send = (dueAt: number) => {
    const body = leadBody(nextPhone());
    const done = new Promise<void>((resolve) => {
      const request = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            latencies.push(performance.now() - dueAt);
            const status = response.statusCode ?? 0;
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
            if (status === 201) recordCreated(Buffer.concat(chunks).toString('utf8'));
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors += 1;
        resolve();
      });
      request.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const started = performance.now();
  await new Promise<void>((resolve) => {
    const ticker = setInterval(() => {
      const now = performance.now();
      for (; sent < total && started + sent * intervalMs <= now; sent += 1) send(started + sent * intervalMs);
      if (sent >= total) {
        clearInterval(ticker);
        resolve();
      }
    }, 1);
  });
  await Promise.all(inFlight);
  const durationSeconds = (performance.now() - started) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const created = statusCodes['201'] ?? 0;
  const at = (p: number) => round(percentile(latencies, p) ?? 0, 1);
  return {
    connections: options.connections,
    targetRate: options.rate,
    durationSeconds: round(durationSeconds, 2),
    requestsPerSecondMean: round(latencies.length / durationSeconds, 1),
    leadsCreated: created,
    leadsPerSecond: round(created / durationSeconds, 1),
    latencyMs: {
      mean: round(latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length), 2),
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: round(latencies.at(-1) ?? 0, 1),
    },
    statusCodes,
    non2xx: latencies.length - created,
    errors,
    timeouts: 0,
  } satisfies LoadPhase;
}

async function burst(apiUrl: string, twilio: FakeTwilio) {
  const { leads, concurrency, smsWaitSeconds } = SETTINGS.burst;
  const phones = Array.from({ length: leads }, nextPhone);
  const answeredAt = new Map<string, number>();
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const smsBefore = twilio.messages.length;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < phones.length) {
        const telefono = phones[next++]!;
        try {
          const response = await fetch(`${apiUrl}/api/ebook-request`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: leadBody(telefono),
          });
          const at = Date.now();
          const body = await response.text();
          statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
          if (response.status === 201) {
            answeredAt.set(telefono, at);
            recordCreated(body);
          }
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const sendSeconds = (performance.now() - started) / 1000;

  const receivedAt = new Map<string, number>();
  let scanned = smsBefore;
  const deadline = Date.now() + smsWaitSeconds * 1000;
  for (;;) {
    for (; scanned < twilio.messages.length; scanned += 1) {
      const message = twilio.messages[scanned]!;
      if (answeredAt.has(message.to) && !receivedAt.has(message.to)) receivedAt.set(message.to, message.receivedAt);
    }
    if (receivedAt.size >= answeredAt.size || Date.now() > deadline) break;
    await sleep(50);
  }
  const delays = [...receivedAt].map(([phone, at]) => at - answeredAt.get(phone)!).sort((a, b) => a - b);
  const created = answeredAt.size;
  return {
    leads,
    concurrency,
    sendSeconds: round(sendSeconds, 2),
    requestsPerSecond: round(leads / sendSeconds, 1),
    leadsCreated: created,
    statusCodes,
    non2xx: Object.entries(statusCodes)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0),
    errors,
    smsReceived: receivedAt.size,
    smsMissing: created - receivedAt.size,
    timeToSmsMs: {
      min: delays[0] ?? null,
      p50: percentile(delays, 50),
      p95: percentile(delays, 95),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? null,
    },
  };
}

/* ------------------------------- queues -------------------------------- */

const WATCHED_QUEUES = ['sms', 'crm'] as const;

async function pendingJobs(queues: Queue[]) {
  let pending = 0;
  for (const queue of queues) {
    const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
    pending += Object.values(counts).reduce((sum, count) => sum + count, 0);
  }
  return pending;
}

/** Waits until the SMS and CRM queues are empty: the worker has caught up. */
async function drain(queues: Queue[], twilio: FakeTwilio, waitSeconds: number) {
  const started = performance.now();
  const smsBefore = twilio.messages.length;
  const pendingAtStart = await pendingJobs(queues);
  const deadline = Date.now() + waitSeconds * 1000;
  let pending = pendingAtStart;
  while (pending > 0 && Date.now() < deadline) {
    await sleep(250);
    pending = await pendingJobs(queues);
  }
  const seconds = (performance.now() - started) / 1000;
  const sms = twilio.messages.length - smsBefore;
  return {
    jobsPendingAtStart: pendingAtStart,
    jobsPendingAtEnd: pending,
    seconds: round(seconds, 1),
    smsSent: sms,
    smsPerSecond: seconds > 0 ? round(sms / seconds, 1) : null,
  };
}

/* ---------------------- end to end: the product as npm start runs it ---------------------- */

/**
 * The default configuration first; every other run names what it changes. By default SMS
 * leave at SMS_RATE_PER_SECOND=10 (a budget, not a speed): lifted, the run shows how many
 * leads this machine carries from the form to the delivered SMS.
 */
const END_TO_END_RUNS: Record<string, string>[] = [{}, { SMS_RATE_PER_SECOND: '10000' }];

const describeChanges = (changes: Record<string, string>) =>
  Object.keys(changes).length === 0
    ? 'default configuration'
    : Object.entries(changes)
        .map(([key, value]) => `${key}=${value}`)
        .join(', ');

/** A few leads one after the other, each from an address of its own (warm-up). */
async function offerLeads(apiUrl: string, count: number, concurrency: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const response = await fetch(`${apiUrl}/api/ebook-request`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': nextClientAddress() },
          body: leadBody(nextPhone()),
        });
        if (response.status !== 201) throw new Error(`warm-up lead answered ${response.status}: ${await response.text()}`);
        recordCreated(await response.text());
      }
    }),
  );
}

/** `delivered` callbacks the API acknowledged (it answers only once the status is stored). */
const deliveredAcknowledged = (twilio: FakeTwilio, until = Infinity) =>
  twilio.statusCallbacks.filter(
    (callback) => callback.status === 'delivered' && callback.answered === 204 && callback.at <= until,
  );

/** CPU milliseconds per lead of the processes under test. */
function cpuMsPerLead(cores: CpuCores | null, seconds: number, leads: number) {
  if (!cores || leads === 0) return null;
  const ms = (value: number) => round((value * seconds * 1000) / leads, 2);
  const perLead = { api: ms(cores.api), worker: ms(cores.worker), postgres: ms(cores.postgres), redis: ms(cores.redis) };
  return { ...perLead, total: round(perLead.api + perLead.worker + perLead.postgres + perLead.redis, 2) };
}

/**
 * The API and the worker started as `npm start` starts them, with the default
 * configuration but for where they listen and keep data and the SMS provider (the real
 * twilio client to the local Twilio-compatible server, which posts the status callbacks
 * Twilio posts). Leads are offered at maximum for a fixed time, then, when the SMS budget
 * lets the backlog go out within the wait, until every SMS is delivered. A lead counts end
 * to end once its SMS is `delivered` in PostgreSQL.
 */
async function endToEndRun(serverUrl: string, redisUrl: string, changes: Record<string, string>) {
  const { warmupLeads, seconds, connections, drainWaitSeconds, statusCallbacks } = SETTINGS.endToEnd;
  const databaseUrl = await recreateDatabase(serverUrl, BENCH_DATABASE);
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const redis = createRedis(redisUrl, 'worker');
  const queues = WATCHED_QUEUES.map((name) => new Queue(name, { connection: redis, prefix }));
  const twilio = await startFakeTwilio({ statusCallbacks });
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...npmStartConfiguration(),
    PORT: String(port),
    PUBLIC_BASE_URL: apiUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    SMS_PROVIDER: 'twilio',
    TWILIO_FROM: 'GuidaFin',
    TWILIO_API_BASE_URL: twilio.url,
    // Thousands of leads a second would trip the challenge's thresholds (decision 028): they
    // are still counted (their cost is in the figures), but never reached.
    ...CHALLENGE_NEVER_REACHED,
    ...changes,
  };
  const processEnv = isolatedEnv({ ...env, ...SMS_BUDGETS_LIFTED }, twilio);
  // To profile the processes, e.g. BENCH_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/profiles".
  const nodeOptions = process.env.BENCH_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const count = async (sql: string, values: unknown[] = []) =>
    Number((await db.query<{ n: string }>(sql, values)).rows[0]?.n ?? 0);
  try {
    log(`end to end, ${describeChanges(changes)}: starting the api and the worker (port ${port}, Redis prefix ${prefix})`);
    const api = startService('api', 'api/dist/server.js', processEnv, nodeOptions);
    await Promise.race([waitForReady(apiUrl), serviceCrashed]);
    const worker = startService('worker', 'worker/dist/index.js', processEnv, nodeOptions);
    const answeredBefore = answeredLeadIds.length;

    const measured = await Promise.race([
      (async () => {
        log(`  warm-up: ${warmupLeads} leads, until their SMS are delivered (not reported)`);
        await offerLeads(apiUrl, warmupLeads, 10);
        await waitFor(() => deliveredAcknowledged(twilio).length >= warmupLeads, {
          timeoutMs: 60_000,
          intervalMs: 100,
          what: 'the SMS of the warm-up leads to be delivered',
        });
        const lastWarmupLead = await count('SELECT coalesce(max(id), 0) AS n FROM ebook_requests');
        const smsBefore = twilio.messages.length;
        const deliveredBefore = deliveredAcknowledged(twilio).length;
        const budget = Number(env.SMS_RATE_PER_SECOND);

        log(`  ${seconds} s without a rate cap, ${connections} connections, then until every SMS is delivered`);
        const windowStartedAt = Date.now();
        const started = performance.now();
        const whole = await withCpu(async () => {
          const window = await withCpu(() => maximumPhase(apiUrl, { seconds, connections, clientAddresses: true }));
          const windowEnd = Date.now();
          const smsDuringWindow = twilio.messages.length - smsBefore;
          const deliveredDuringWindow = deliveredAcknowledged(twilio, windowEnd).length - deliveredBefore;
          const backlog = await pendingJobs(queues);
          const drainable = backlog / budget <= drainWaitSeconds;
          const deadline = Date.now() + drainWaitSeconds * 1000;
          let drained = false;
          while (drainable && Date.now() < deadline) {
            if ((await pendingJobs(queues)) === 0 && twilio.statusCallbacksPending() === 0) {
              drained = true;
              break;
            }
            await sleep(100);
          }
          return { window, smsDuringWindow, deliveredDuringWindow, drainable, drained };
        });
        const wholeSeconds = (performance.now() - started) / 1000;
        return { ...whole, windowStartedAt, wholeSeconds, lastWarmupLead, deliveredBefore, budget };
      })(),
      serviceCrashed,
    ]);
    const logLines = { api: api.logLines, worker: worker.logLines };
    const stoppedAt = Date.now();
    await Promise.all([stopService(api), stopService(worker)]);

    const { window, drainable, drained } = measured;
    const windowSeconds = window.durationSeconds;
    const deliveredCallbacks = deliveredAcknowledged(twilio).slice(measured.deliveredBefore);
    const deliveredInPostgres = await count(
      "SELECT count(*) AS n FROM sms_messages WHERE status = 'delivered' AND lead_id > $1",
      [measured.lastWarmupLead],
    );
    const leadsOffered = await count('SELECT count(*) AS n FROM ebook_requests WHERE id > $1', [measured.lastWarmupLead]);
    const runIds = answeredLeadIds.slice(answeredBefore);
    const answeredAndStored = await count('SELECT count(*) AS n FROM ebook_requests WHERE id = ANY($1::bigint[])', [
      runIds,
    ]);
    const smsStatuses = Object.fromEntries(
      (
        await db.query<{ status: string; n: string }>(
          'SELECT status, count(*) AS n FROM sms_messages GROUP BY status ORDER BY status',
        )
      ).rows.map((row) => [row.status, Number(row.n)]),
    );
    const lastDeliverySeconds = ((deliveredCallbacks.at(-1)?.at ?? Date.now()) - measured.windowStartedAt) / 1000;
    const endToEnd = drained
      ? {
          definition:
            'leads taken in during the window whose SMS is delivered in PostgreSQL, per second from the start ' +
            'of the window to the last delivery',
          leads: deliveredInPostgres,
          seconds: round(lastDeliverySeconds, 1),
          leadsPerSecond: round(deliveredInPostgres / lastDeliverySeconds, 1),
          cpuMsPerLead: cpuMsPerLead(measured.cpuCores, measured.wholeSeconds, deliveredInPostgres),
          cpuCores: measured.cpuCores,
        }
      : {
          definition:
            `SMS delivered per second during the window (at most SMS_RATE_PER_SECOND=${measured.budget} leave ` +
            'a second); CPU per lead taken in',
          leads: measured.deliveredDuringWindow,
          seconds: windowSeconds,
          leadsPerSecond: round(measured.deliveredDuringWindow / windowSeconds, 1),
          cpuMsPerLead: cpuMsPerLead(window.cpuCores, windowSeconds, window.leadsCreated),
          cpuCores: window.cpuCores,
        };
    return {
      name: describeChanges(changes),
      changes,
      env,
      intake: window,
      intakeCpuMsPerLead: cpuMsPerLead(window.cpuCores, windowSeconds, window.leadsCreated),
      smsPerSecondDuringWindow: round(measured.smsDuringWindow / windowSeconds, 1),
      deliveredPerSecondDuringWindow: round(measured.deliveredDuringWindow / windowSeconds, 1),
      drainable,
      drained,
      endToEnd,
      sanity: {
        answers201: runIds.length,
        answeredAndStored,
        leadsOfferedStored: leadsOffered,
        smsStatuses,
        deliveredCallbacksAcknowledged: deliveredCallbacks.length,
        deliveredInPostgres,
        // Those posted after the API stopped are left out: the run does not wait for a backlog.
        callbacksNotAnswered204: twilio.statusCallbacks.filter(
          (callback) => callback.answered !== 204 && callback.at < stoppedAt,
        ).length,
        twilioMessages: twilio.messages.length,
        duplicatePhones: twilio.messages.length - new Set(twilio.messages.map((message) => message.to)).size,
        logLines,
      },
    };
  } finally {
    await db.end();
    await twilio.close();
    await Promise.all(queues.map((queue) => queue.close()));
    await deleteKeys(redis, prefix);
    redis.disconnect();
  }
}

type EndToEndResult = Awaited<ReturnType<typeof endToEndRun>>;

const msPerLead = (perLead: ReturnType<typeof cpuMsPerLead>) =>
  perLead
    ? `${perLead.total} ms (api ${perLead.api} · worker ${perLead.worker} · postgres ${perLead.postgres} · redis ${perLead.redis})`
    : 'n/a';

function printEndToEnd(
  runs: EndToEndResult[],
  beside: { apiAlone: (LoadPhase & { cpuCores: CpuCores | null }) | null; referenceRequestsPerSecond: number },
) {
  const { seconds, connections, statusCallbacks } = SETTINGS.endToEnd;
  console.log(
    `\nEnd to end: the product as \`npm start\` runs it, API and worker on this machine (${seconds} s at maximum, ` +
      `${connections} connections, each lead from its own address; the fake Twilio calls back sent and delivered, ` +
      `${statusCallbacks.delayMs} ms apart)`,
  );
  for (const run of runs) {
    const { intake, endToEnd } = run;
    const settings = ['NODE_ENV', 'LOG_LEVEL', 'WEB_CONCURRENCY', 'WORKER_CONCURRENCY', 'SMS_RATE_PER_SECOND']
      .map((key) => `${key}=${run.env[key] ?? '(unset)'}`)
      .join(' ');
    console.log(`  ${run.name} (${settings})`);
    console.log(
      `    intake with the worker running: ${number(intake.leadsPerSecond, 1)} leads/s · p99 ${intake.latencyMs.p99} ms · ` +
        `non-2xx ${intake.non2xx} · errors ${intake.errors} · CPU per lead taken in ${msPerLead(run.intakeCpuMsPerLead)}`,
    );
    console.log(
      `    during the window: ${number(run.smsPerSecondDuringWindow, 1)} SMS/s to Twilio, ` +
        `${number(run.deliveredPerSecondDuringWindow, 1)} delivered/s`,
    );
    if (run.drained) {
      console.log(
        `    end to end: ${number(endToEnd.leadsPerSecond, 1)} leads/s delivered (${number(endToEnd.leads)} leads, ` +
          `last SMS delivered ${endToEnd.seconds} s after the window opened) · CPU per lead ${msPerLead(endToEnd.cpuMsPerLead)}`,
      );
    } else {
      const why = run.drainable
        ? `the backlog was not delivered within ${SETTINGS.endToEnd.drainWaitSeconds} s`
        : `at most SMS_RATE_PER_SECOND=${run.env.SMS_RATE_PER_SECOND} SMS leave a second, so the backlog was not waited for`;
      console.log(`    end to end: ${number(endToEnd.leadsPerSecond, 1)} leads/s delivered during the window (${why})`);
    }
    const { sanity } = run;
    console.log(
      `    sanity: ${number(sanity.answeredAndStored)}/${number(sanity.answers201)} answered leads stored · SMS ` +
        `${JSON.stringify(sanity.smsStatuses)} · delivered callbacks answered 204: ` +
        `${number(sanity.deliveredCallbacksAcknowledged)}, delivered in PostgreSQL ${number(sanity.deliveredInPostgres)} · ` +
        `callbacks not answered 204 while the API ran: ${sanity.callbacksNotAnswered204} · ` +
        `duplicate phones ${sanity.duplicatePhones} · ` +
        `log lines api ${number(sanity.logLines.api)}, worker ${number(sanity.logLines.worker)}`,
    );
  }
  const { apiAlone } = beside;
  if (apiAlone) {
    const alone = cpuMsPerLead(apiAlone.cpuCores, apiAlone.durationSeconds, apiAlone.leadsCreated);
    console.log(
      `  beside it, same run: API alone at maximum (phase B: LOG_LEVEL=warn, WEB_CONCURRENCY=${API_PROCESSES}, ` +
        `no worker) ${number(apiAlone.leadsPerSecond, 1)} leads/s, CPU per lead ${msPerLead(alone)}`,
    );
  }
  const best = Math.max(...runs.map((run) => (run.drained ? run.endToEnd.leadsPerSecond : 0)));
  console.log(
    `  machine reference (bare express + one insert): ${number(beside.referenceRequestsPerSecond, 1)} req/s` +
      (best > 0 ? ` · end to end = ${number((100 * best) / beside.referenceRequestsPerSecond, 1)} % of it` : ''),
  );
}

const endToEndCpuRows = (runs: EndToEndResult[]) =>
  runs.flatMap((run): [string, CpuCores | null][] => [
    [`${run.name}: intake`, run.intake.cpuCores],
    ...(run.drained ? [[`${run.name}: end to end`, run.endToEnd.cpuCores] as [string, CpuCores | null]] : []),
  ]);

/** BENCH_LEADS_ONLY=end-to-end: the end-to-end runs and the machine reference only (to work on them). */
async function endToEndOnly() {
  const startedAt = new Date();
  const serverUrl = localUrl(DATABASE_SERVER_URL, 'DATABASE_URL');
  const redisUrl = localUrl(REDIS_URL, 'REDIS_URL');
  onCleanUp(stopServices);
  const runs: EndToEndResult[] = [];
  for (const changes of END_TO_END_RUNS) runs.push(await endToEndRun(serverUrl, redisUrl, changes));
  log(`machine reference: express + one-row insert, ${SETTINGS.reference.seconds} s, ${SETTINGS.reference.connections} connections`);
  const reference = await referenceRun(withDatabase(serverUrl, BENCH_DATABASE));
  printEndToEnd(runs, { apiAlone: null, referenceRequestsPerSecond: reference.requestsPerSecondMean });
  printCpu(endToEndCpuRows(runs), 'load generator + fake Twilio');
  const finishedAt = new Date();
  const file = writeResults('leads-end-to-end', startedAt, {
    benchmark: 'leads-end-to-end',
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    machine: machineFacts(),
    settings: SETTINGS.endToEnd,
    endToEnd: runs,
    machineReference: reference,
  });
  console.log(`\nResults: ${file}`);
}

/* ----------------------------- rate limit ------------------------------ */

/**
 * The limiter a lead goes through twice (per IP, then per phone), alone against the local
 * Redis: the limiter cannot be switched off in the API, so its cost is measured here.
 */
async function rateLimitCost(redisUrl: string, prefix: string, ops: number, concurrency: number) {
  const redis = createRedis(redisUrl, 'request');
  try {
    // The API's connection refuses commands until it is ready (no offline queue).
    if (redis.status !== 'ready') await once(redis, 'ready');
    const keyPrefix = `${prefix}:rl-bench-${concurrency}`;
    const limit = (name: string) =>
      createRateLimit({ redis, keyPrefix: `${keyPrefix}:${name}`, points: MAX_LEAD_RATE_LIMIT, durationSeconds: 3600 });
    const perIp = limit('ip');
    const perPhone = limit('phone');
    const leads = ops / 2;
    const latenciesUs: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < leads) {
          const lead = next++;
          const before = performance.now();
          await perIp.consume('127.0.0.1');
          const between = performance.now();
          await perPhone.consume(`+39348${String(lead).padStart(7, '0')}`);
          latenciesUs.push((between - before) * 1000, (performance.now() - between) * 1000);
        }
      }),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    // Counted in Redis, not by the in-memory fallback the limiter switches to on errors.
    const countedInRedis = Number(await redis.get(`${keyPrefix}:ip:127.0.0.1`));
    latenciesUs.sort((a, b) => a - b);
    return {
      consumes: ops,
      concurrency,
      opsPerSecond: round(ops / wallSeconds),
      meanUsPerConsume: round(latenciesUs.reduce((sum, value) => sum + value, 0) / latenciesUs.length, 1),
      p99UsPerConsume: round(percentile(latenciesUs, 99) ?? 0, 1),
      countedInRedis: countedInRedis === leads,
    };
  } finally {
    redis.disconnect();
  }
}

/* ------------------------------- report -------------------------------- */

function printLoadPhase(title: string, phase: LoadPhase) {
  const rate = phase.targetRate ? `${phase.targetRate} req/s target` : 'no rate cap';
  console.log(`\n${title} (${rate}, ${phase.connections} connections, ${phase.durationSeconds} s)`);
  console.log(
    `  req/s mean ${number(phase.requestsPerSecondMean, 1)} · leads created ${number(phase.leadsCreated)} ` +
      `(${number(phase.leadsPerSecond, 1)}/s)`,
  );
  console.log(
    `  latency ms: mean ${phase.latencyMs.mean} · p50 ${phase.latencyMs.p50} · p90 ${phase.latencyMs.p90} · ` +
      `p99 ${phase.latencyMs.p99} · max ${phase.latencyMs.max}`,
  );
  console.log(
    `  non-2xx ${phase.non2xx} · errors ${phase.errors} · timeouts ${phase.timeouts} · ` +
      `status codes ${JSON.stringify(phase.statusCodes)}`,
  );
}

/* --------------------------- machine reference --------------------------- */

async function referenceRun(databaseUrl: string) {
  const port = await freePort();
  const reference = spawn(process.execPath, ['bench/reference-server.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await fetch(url);
        break;
      } catch {
        if (Date.now() > deadline) throw new Error('the reference server did not start');
        await sleep(100);
      }
    }
    const { seconds, connections } = SETTINGS.reference;
    const result = await autocannon({
      url: `${url}/api/ebook-request`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      connections,
      duration: seconds,
      requests: [{ setupRequest: (request) => ({ ...request, body: leadBody(nextPhone()) }) }],
    });
    return {
      requestsPerSecondMean: round(result.requests.average, 1),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
      non2xx: result.non2xx,
    };
  } finally {
    const exited = once(reference, 'exit');
    reference.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
  }
}

/* -------------------------------- main --------------------------------- */

async function main() {
  const startedAt = new Date();
  const serverUrl = localUrl(DATABASE_SERVER_URL, 'DATABASE_URL');
  const redisUrl = localUrl(REDIS_URL, 'REDIS_URL');
  const prefix = `bench-${randomBytes(4).toString('hex')}`;

  log(`recreating database ${BENCH_DATABASE} and migrating it`);
  const databaseUrl = await recreateDatabase(serverUrl, BENCH_DATABASE);

  const redis = createRedis(redisUrl, 'worker');
  onCleanUp(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  const queues = WATCHED_QUEUES.map((name) => new Queue(name, { connection: redis, prefix }));
  onCleanUp(() => Promise.all(queues.map((queue) => queue.close())));

  const twilio = await startFakeTwilio();
  onCleanUp(() => twilio.close());

  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    PUBLIC_BASE_URL: apiUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    SMS_PROVIDER: 'twilio',
    TWILIO_FROM: 'GuidaFin',
    TWILIO_API_BASE_URL: twilio.url,
    LEAD_RATE_LIMIT_PER_IP: String(MAX_LEAD_RATE_LIMIT),
    ...CHALLENGE_NEVER_REACHED,
    SMS_RATE_PER_SECOND: String(MAX_SMS_RATE_PER_SECOND),
    WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
    WEB_CONCURRENCY: String(API_PROCESSES),
    SHUTDOWN_GRACE_MS: '5000',
  };
  const processEnv = isolatedEnv({ ...env, ...SMS_BUDGETS_LIFTED }, twilio);
  onCleanUp(stopServices);
  // Intake is measured first with the API alone, as in production where workers run on
  // machines of their own: on these two shared cores a worker sending SMS at full speed
  // takes the CPU the API would answer with. The same load is then repeated with the
  // worker running beside it, so the whole-system figure on one machine is reported too.
  log(
    `starting the api (port ${port}, ${API_PROCESSES} processes), LOG_LEVEL=warn, Redis prefix ${prefix}; the worker starts after phase B`,
  );
  const api = startService('api', 'api/dist/server.js', processEnv);
  await Promise.race([waitForReady(apiUrl), serviceCrashed]);
  let worker: ReturnType<typeof startService> | undefined;

  const phases = await Promise.race([
    (async () => {
      const { warmup, fixedRate, maximum } = SETTINGS;
      log(`warm-up: ${warmup.seconds} s at ${warmup.rate} req/s (not reported)`);
      const warm = await pacedPhase(apiUrl, warmup);

      log(`phase A: ${fixedRate.seconds} s at ${fixedRate.rate} req/s, ${fixedRate.connections} connections, api alone`);
      const a = await withCpu(() => pacedPhase(apiUrl, fixedRate));
      log(`phase B: ${maximum.seconds} s without a rate cap, ${maximum.connections} connections, api alone`);
      const b = await withCpu(() => maximumPhase(apiUrl, maximum));

      log('starting the worker: it sends the SMS backlog of the warm-up and phases A and B');
      worker = startService('worker', 'worker/dist/index.js', processEnv);
      const backlog = await withCpu(() => drain(queues, twilio, SETTINGS.drainWaitSeconds));

      log(`phase A+W: ${fixedRate.seconds} s at ${fixedRate.rate} req/s with the worker sending beside the api`);
      const smsBeforeAW = twilio.messages.length;
      const aw = await withCpu(() => pacedPhase(apiUrl, fixedRate));
      const smsDuringAW = twilio.messages.length - smsBeforeAW;
      await drain(queues, twilio, SETTINGS.drainWaitSeconds);

      log(`phase B+W: ${maximum.seconds} s without a rate cap with the worker sending beside the api`);
      const smsBeforeBW = twilio.messages.length;
      const bw = await withCpu(() => maximumPhase(apiUrl, maximum));
      const smsDuringBW = twilio.messages.length - smsBeforeBW;
      const drainBW = await withCpu(() => drain(queues, twilio, SETTINGS.drainWaitSeconds));

      log(`phase C: burst of ${SETTINGS.burst.leads} leads, ${SETTINGS.burst.concurrency} at a time`);
      const c = await withCpu(() => burst(apiUrl, twilio));
      // Lets the last SMS and CRM statuses settle before the database is checked.
      await drain(queues, twilio, SETTINGS.drainWaitSeconds);
      return {
        warm,
        a,
        b,
        backlog,
        aw: { ...aw, smsDuringPhase: smsDuringAW },
        bw: { ...bw, smsDuringPhase: smsDuringBW },
        drainBW,
        c,
      };
    })(),
    serviceCrashed,
  ]);

  log('checking the database');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const sanity = await (async () => {
    try {
      const rows = (await db.query<{ n: string }>('SELECT count(*) AS n FROM ebook_requests')).rows[0]?.n;
      const stored = (
        await db.query<{ n: string }>('SELECT count(*) AS n FROM ebook_requests WHERE id = ANY($1::bigint[])', [
          answeredLeadIds,
        ])
      ).rows[0]?.n;
      const sms = await db.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM sms_messages GROUP BY status ORDER BY status',
      );
      return {
        answers201: answeredLeadIds.length,
        ebookRequestsRows: Number(rows),
        answeredAndStored: Number(stored),
        // A timed phase ends with up to one request in flight per connection, stored but unanswered.
        cutOffAtMost:
          phases.warm.connections +
          phases.a.connections +
          phases.b.connections +
          phases.aw.connections +
          phases.bw.connections,
        smsStatuses: Object.fromEntries(sms.rows.map((row) => [row.status, Number(row.n)])),
      };
    } finally {
      await db.end();
    }
  })();
  const uniqueSmsPhones = new Set(twilio.messages.map((message) => message.to)).size;
  const twilioFacts = {
    messages: twilio.messages.length,
    duplicatePhones: twilio.messages.length - uniqueSmsPhones,
    refused: twilio.refused.length,
  };

  const logLines = { api: api.logLines, worker: worker?.logLines ?? 0 };
  await stopServices();

  const endToEnd: EndToEndResult[] = [];
  for (const changes of END_TO_END_RUNS) endToEnd.push(await endToEndRun(serverUrl, redisUrl, changes));

  log(`machine reference: express + one-row insert, ${SETTINGS.reference.seconds} s, ${SETTINGS.reference.connections} connections`);
  const reference = await referenceRun(databaseUrl);

  log('rate-limit cost: the limiter alone against Redis (API and worker stopped)');
  const rateLimit = {
    concurrent: await rateLimitCost(redisUrl, prefix, SETTINGS.rateLimit.ops, SETTINGS.rateLimit.concurrency),
    sequential: await rateLimitCost(redisUrl, prefix, SETTINGS.rateLimit.sequentialOps, 1),
  };

  const { a, b, aw, bw, c } = phases;
  const bars = [
    {
      bar: `lead intake ≥ ${number(BARS.leadsPerSecondAtMaximum)} leads/s at maximum (phase B, api alone)`,
      value: `${number(b.leadsPerSecond, 1)} leads/s`,
      pass: b.leadsPerSecond >= BARS.leadsPerSecondAtMaximum && b.non2xx === 0 && b.errors === 0,
    },
    {
      bar: `p99 ≤ ${BARS.p99MsAt500} ms at ${SETTINGS.fixedRate.rate} req/s (phase A, api alone)`,
      value: `${a.latencyMs.p99} ms at ${number(a.requestsPerSecondMean, 1)} req/s`,
      pass:
        a.latencyMs.p99 <= BARS.p99MsAt500 &&
        a.requestsPerSecondMean >= SETTINGS.fixedRate.rate * 0.95 &&
        a.non2xx === 0 &&
        a.errors === 0,
    },
    {
      bar: `time from 201 to SMS p99 ≤ ${number(BARS.timeToSmsP99Ms)} ms, burst of ${number(SETTINGS.burst.leads)} (phase C)`,
      value: `${number(c.timeToSmsMs.p99)} ms, ${c.smsMissing} missing`,
      pass:
        c.timeToSmsMs.p99 !== null &&
        c.timeToSmsMs.p99 <= BARS.timeToSmsP99Ms &&
        c.smsMissing === 0 &&
        c.leadsCreated === SETTINGS.burst.leads,
    },
  ];
  const nothingLost =
    sanity.answeredAndStored === sanity.answers201 &&
    sanity.ebookRequestsRows >= sanity.answers201 &&
    sanity.ebookRequestsRows - sanity.answers201 <= sanity.cutOffAtMost;

  /* ----- print ----- */
  const totalMemoryGiB = os.totalmem() / 2 ** 30;
  console.log(
    `\nLead intake benchmark · ${os.cpus().length} CPUs · ${number(totalMemoryGiB, 1)} GiB RAM · Node ${process.version}`,
  );
  console.log('Load generator, fake Twilio, API, worker, PostgreSQL and Redis share this machine.');
  printEndToEnd(endToEnd, { apiAlone: b, referenceRequestsPerSecond: reference.requestsPerSecondMean });
  console.log(
    `\nPhases A to C change the configuration: LOG_LEVEL=warn, WEB_CONCURRENCY=${API_PROCESSES}, ` +
      `WORKER_CONCURRENCY=${WORKER_CONCURRENCY}, SMS_RATE_PER_SECOND=${MAX_SMS_RATE_PER_SECOND}, and the per-IP limit raised.`,
  );
  console.log('Phases A and B: the API alone (the worker starts afterwards, as on a machine of its own).');
  printLoadPhase('Phase A · fixed rate, api alone', a);
  printLoadPhase('Phase B · maximum, api alone', b);
  const { backlog } = phases;
  console.log(
    `\nWorker started on the backlog: ${number(backlog.smsSent)} SMS in ${backlog.seconds} s ` +
      `(${number(backlog.smsPerSecond, 1)} SMS/s, ${backlog.jobsPendingAtEnd} jobs left)`,
  );
  printLoadPhase('Phase A+W · fixed rate, worker sending beside the api', aw);
  console.log(`  SMS sent by the worker during the phase: ${number(aw.smsDuringPhase)}`);
  printLoadPhase('Phase B+W · maximum, worker sending beside the api', bw);
  console.log(
    `  SMS sent by the worker during the phase: ${number(bw.smsDuringPhase)} ` +
      `(${number(bw.smsDuringPhase / bw.durationSeconds, 1)}/s); backlog drained in ${phases.drainBW.seconds} s ` +
      `(${number(phases.drainBW.smsPerSecond, 1)} SMS/s, ${phases.drainBW.jobsPendingAtEnd} jobs left)`,
  );
  console.log(`\nPhase C · burst of ${number(c.leads)} leads (${c.concurrency} at a time)`);
  console.log(
    `  sent in ${c.sendSeconds} s (${number(c.requestsPerSecond, 1)} req/s) · 201: ${number(c.leadsCreated)} · ` +
      `non-2xx ${c.non2xx} · errors ${c.errors}`,
  );
  console.log(`  SMS arrived ${number(c.smsReceived)} · missing ${number(c.smsMissing)}`);
  console.log(
    `  time from 201 to SMS ms: p50 ${number(c.timeToSmsMs.p50)} · p95 ${number(c.timeToSmsMs.p95)} · ` +
      `p99 ${number(c.timeToSmsMs.p99)} · max ${number(c.timeToSmsMs.max)} (min ${number(c.timeToSmsMs.min)})`,
  );
  if ((c.timeToSmsMs.min ?? 0) < 0) {
    console.log(
      '  (a negative time: the fake Twilio, in this process, logged the SMS before this process got round to ' +
        'the 201; both times come from one clock, so this is the load generator\'s own delay)',
    );
  }
  console.log('\nMachine reference (bench/reference-server.mjs: express, JSON, one prepared insert, nothing else)');
  console.log(
    `  ${number(reference.requestsPerSecondMean, 1)} req/s · p50 ${reference.latencyMs.p50} ms · ` +
      `p99 ${reference.latencyMs.p99} ms · lead intake at maximum = ` +
      `${number((100 * b.leadsPerSecond) / reference.requestsPerSecondMean, 0)} % of it`,
  );
  console.log('\nRate-limit cost (two Redis round trips per lead: per IP and per phone)');
  for (const run of [rateLimit.concurrent, rateLimit.sequential]) {
    console.log(
      `  ${number(run.consumes)} consumes, concurrency ${run.concurrency}: ${number(run.opsPerSecond)} consumes/s · ` +
        `mean ${run.meanUsPerConsume} µs · p99 ${run.p99UsPerConsume} µs per consume` +
        (run.countedInRedis ? '' : ' · WARNING: some were counted by the in-memory fallback, not Redis'),
    );
  }
  console.log(
    `  so each lead waits about ${number((rateLimit.sequential.meanUsPerConsume * 2) / 1000, 2)} ms on the limiter`,
  );
  printCpu(
    [
      ['A fixed rate', a.cpuCores],
      ['B maximum', b.cpuCores],
      ['worker backlog', backlog.cpuCores],
      ['A+W fixed rate', aw.cpuCores],
      ['B+W maximum', bw.cpuCores],
      ['B+W drain', phases.drainBW.cpuCores],
      ['C burst', c.cpuCores],
      ...endToEndCpuRows(endToEnd),
    ],
    'load generator + fake Twilio',
  );
  console.log('\nSanity');
  console.log(
    `  201 answers ${number(sanity.answers201)} · ebook_requests rows ${number(sanity.ebookRequestsRows)} · ` +
      `answered leads found in the database ${number(sanity.answeredAndStored)}`,
  );
  if (sanity.ebookRequestsRows !== sanity.answers201) {
    console.log(
      `  ${number(sanity.ebookRequestsRows - sanity.answers201)} more rows than 201 answers: requests still in ` +
        `flight when autocannon ended a timed phase (at most one per connection: ${sanity.cutOffAtMost}); ` +
        'stored, but their answers were not awaited',
    );
  }
  console.log(
    `  SMS statuses ${JSON.stringify(sanity.smsStatuses)} · fake Twilio: ${number(twilioFacts.messages)} messages, ` +
      `${twilioFacts.duplicatePhones} duplicate phones, ${twilioFacts.refused} refused`,
  );
  console.log(`  api wrote ${logLines.api} log lines, worker ${logLines.worker} (warn or worse)`);
  console.log(`  nothing lost: ${nothingLost ? 'yes' : 'NO'}`);

  console.log('\nBars');
  for (const { bar, value, pass } of bars) console.log(`  ${verdict(pass)}  ${bar}: ${value}`);

  const finishedAt = new Date();
  const results = {
    benchmark: 'leads',
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    totalSeconds: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1),
    machine: machineFacts(),
    config: { settings: SETTINGS, env },
    bars,
    phases: {
      fixedRate: a,
      maximum: b,
      workerBacklog: backlog,
      fixedRateWithWorker: aw,
      maximumWithWorker: bw,
      drainAfterMaximumWithWorker: phases.drainBW,
      burst: c,
    },
    endToEnd,
    machineReference: reference,
    rateLimitCost: rateLimit,
    sanity: { ...sanity, nothingLost, fakeTwilio: twilioFacts, logLines },
  };
  const file = writeResults('leads', startedAt, results);
  console.log(`\nResults: ${file} (and bench/results/leads-latest.json) · total ${results.totalSeconds} s`);
  if (!nothingLost) throw new Error('leads answered 201 are missing from the database');
}

await runBenchmark('leads', SETTINGS.runLimitMinutes, process.env.BENCH_LEADS_ONLY === 'end-to-end' ? endToEndOnly : main);
