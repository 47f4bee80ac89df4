/**
 * Analytics ingest benchmark (`npm run bench:analytics`). The bundled API and worker run
 * as real processes on a database of their own. Measures the events the single-event and
 * the batch endpoint accept, how fast the worker stores the stream (after each load, and
 * alone on a preloaded stream), the time from sending an event to its row, and the funnel
 * queries on a million synthetic rows; prints a table and writes
 * bench/results/analytics-*.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { ANALYTICS_CONSUMER_GROUP, analyticsStreamKey } from '@guida/shared/jobs/analytics-stream';
import {
  analyticsBatchSchema,
  DEVICES,
  FORM_ACTIONS,
  FUNNEL_STEPS,
  type AnalyticsEventInput,
} from '@guida/shared/schemas/analytics';
import { createDb } from '@guida/shared/server/db';
import { createLogger } from '@guida/shared/server/logger';
import { createRedis, type Redis } from '@guida/shared/server/redis';
import { freePort } from '@guida/testing/free-port';
import { operatorDay, reportRange } from '../api/src/admin/reports/report-range';
import { createAnalyticsIntake } from '../api/src/analytics/analytics.service';
import { abandonedFields, funnelByDay, timeOnPage, type FunnelFilter } from '../api/src/admin/reports/funnel.repo';
import { clientKey, truncateIp } from '../api/src/http/client-ip';
import { createRollUpFunnel, OPEN_DAYS } from '../worker/src/maintenance/roll-up-funnel';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../scripts/lib/defaults.mjs';
import {
  benchLog,
  cpuMeter,
  deleteKeys,
  isolatedEnv,
  localUrl,
  machineFacts,
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
} from './bench-support';

const SETTINGS = {
  single: { seconds: 15, connections: 50 },
  batch: { seconds: 15, connections: 20, eventsPerRequest: 50, sessionsPerRequest: 20 },
  /** Bound on waiting for the worker to empty the stream after a phase. */
  drainWaitSeconds: 120,
  /** How often the stream and the stored rows are sampled while the worker catches up. */
  sampleMs: 200,
  preload: { entries: 6_000, eventsPerEntry: 50, concurrency: 100 },
  lag: { seconds: 10, eventsPerSecond: 2_000, eventsPerRequest: 50, pollMs: 50, waitSeconds: 30 },
  funnel: {
    conversionRows: 400_000,
    pageViewRows: 400_000,
    formInteractionRows: 200_000,
    days: 30,
    landingPaths: 20,
    utmSources: 10,
    windowsDays: [7, 30],
    runs: 5,
  },
  runLimitMinutes: 10,
};

const BARS = {
  acceptedEventsPerSecond: 5_000,
  storedRowsPerSecond: 20_000,
  lagP99Ms: 2_000,
  /** Our own target, not a product bar. */
  funnelQueryMs: 1_000,
};

const BENCH_DATABASE = 'guida_bench_analytics';
const DATABASE_SERVER_URL = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL || DEFAULT_REDIS_URL;
/** CPU of other processes, in cores, from which a phase's figures are reported as disturbed. */
const BUSY_MACHINE_CORES = 0.25;
/** The highest value the API configuration accepts. */
const MAX_ANALYTICS_RATE_LIMIT = 10_000_000;
const MAX_ANALYTICS_DAILY_MB = 100_000;
const EVENT_TABLES = ['page_views', 'conversion_funnel', 'section_views', 'form_interactions'] as const;

const log = benchLog('analytics');
const withCpu = cpuMeter(BENCH_DATABASE, REDIS_URL);

/* ------------------------------- events -------------------------------- */

const PATHS = ['/', '/educazione-investimenti', '/trading-old', '/guida-etf', '/risparmio-famiglie', '/pensione'];
const REFERRERS = ['https://www.google.com/', 'https://www.facebook.com/', 'https://www.instagram.com/', null];
const USER_AGENTS = [
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
];
const SECTIONS = ['hero', 'benefici', 'indice', 'testimonianze', 'faq', 'modulo'];
const FIELDS = ['nome', 'cognome', 'email', 'telefono', 'gdprConsent'];
const UTM_SOURCES = ['google', 'facebook', 'instagram', 'tiktok', 'newsletter', null];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const whole = (max: number) => Math.floor(Math.random() * (max + 1));
/** Like the browser's: 21 URL-safe characters. */
const newSessionId = () => randomBytes(16).toString('base64url').slice(0, 21);

function pageView(sessionId: string, occurredAt: string) {
  return {
    eventId: randomUUID(),
    sessionId,
    occurredAt,
    path: pick(PATHS),
    referrer: pick(REFERRERS),
    userAgent: pick(USER_AGENTS),
    language: 'it-IT',
    screenResolution: pick(['412x915', '390x844', '1920x1080']),
    device: pick(DEVICES),
    browser: pick(['Chrome', 'Safari', 'Firefox']),
    os: pick(['Android', 'iOS', 'Windows']),
  };
}

function event(type: AnalyticsEventInput['type'], sessionId: string, occurredAt: string): AnalyticsEventInput {
  const common = { eventId: randomUUID(), sessionId, occurredAt };
  switch (type) {
    case 'page-view':
      return { type, ...pageView(sessionId, occurredAt) };
    case 'section-view':
      return { type, ...common, section: pick(SECTIONS), timeSpent: whole(120), path: pick(PATHS) };
    case 'form-interaction': {
      const action = pick(FORM_ACTIONS);
      return {
        type,
        ...common,
        action,
        fieldName: action === 'start_typing' || action === 'page_exit' ? pick(FIELDS) : null,
        timeOnPage: action === 'page_exit' ? whole(600) : null,
        errorMessage: action === 'submit_error' ? 'Numero di telefono non valido' : null,
        scrollDepth: whole(100),
        path: pick(PATHS),
      };
    }
    case 'conversion': {
      const step = pick(FUNNEL_STEPS);
      const utmSource = step === 'landing' ? pick(UTM_SOURCES) : null;
      return {
        type,
        ...common,
        step,
        metadata: {
          path: pick(PATHS),
          referrer: pick(REFERRERS),
          utm_source: utmSource,
          utm_medium: utmSource ? 'cpc' : null,
          utm_campaign: utmSource ? 'autunno-2026' : null,
        },
      };
    }
  }
}

/** Shares of a batch per type, as the site sends them; page views come first. */
const TYPE_SHARES = [
  ['page-view', 0.4],
  ['section-view', 0.24],
  ['form-interaction', 0.2],
  ['conversion', 0.16],
] as const;

function batchTypes(size: number) {
  const types: AnalyticsEventInput['type'][] = [];
  for (const [type, share] of TYPE_SHARES.slice(1)) {
    types.push(...Array<typeof type>(Math.round(size * share)).fill(type));
  }
  return [...Array<'page-view'>(Math.max(1, size - types.length)).fill('page-view'), ...types];
}

/** One request's events, spread over `sessions` visitors; the first is a page view. */
function makeBatch(size: number, sessions: number) {
  const occurredAt = new Date().toISOString();
  const sessionIds = Array.from({ length: sessions }, newSessionId);
  return batchTypes(size).map((type, index) => event(type, sessionIds[index % sessions]!, occurredAt));
}

/** Every 202 answer's event ids, to check afterwards that each one is stored. */
const acceptedEventIds: string[] = [];

/* ---------------------------- stream and rows -------------------------- */

interface Probe {
  redis: Redis;
  db: pg.Client;
  key: string;
}

/**
 * Rows stored so far, as the sum of each table's highest id: an index look-up instead of a
 * count over a growing table while the worker is measured. Exact while no insert conflicts
 * or rolls back (checked against count(*) at the end).
 */
const ROWS_BY_ID = `SELECT ${EVENT_TABLES.map((t) => `(SELECT coalesce(max(id), 0) FROM ${t})`).join(' + ')} AS n`;
const ROWS_COUNTED = `SELECT ${EVENT_TABLES.map((t) => `(SELECT count(*) FROM ${t})`).join(' + ')} AS n`;
const STORED_OF = `SELECT ${EVENT_TABLES.map(
  (t) => `(SELECT count(*) FROM ${t} WHERE event_id = ANY($1::uuid[]))`,
).join(' + ')} AS n`;

async function storedRows(probe: Probe) {
  return Number((await probe.db.query<{ n: string }>(ROWS_BY_ID)).rows[0]?.n ?? 0);
}

async function streamState(probe: Probe) {
  const [entries, summary] = await Promise.all([
    probe.redis.xlen(probe.key),
    probe.redis.xpending(probe.key, ANALYTICS_CONSUMER_GROUP) as Promise<[number, ...unknown[]]>,
  ]);
  return { entries, pending: Number(summary[0]) };
}

/** The worker has created its consumer group: it reads the stream. */
async function waitForConsumer(probe: Probe) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const groups = (await probe.redis.xinfo('GROUPS', probe.key)) as unknown[];
      if (groups.length > 0) return;
    } catch {
      // no stream yet
    }
    await sleep(100);
  }
  throw new Error('the worker did not create its consumer group within 30 s');
}

interface StoreWatch {
  /** Until the stream was empty and nothing pending, or the wait ended. */
  seconds: number;
  emptied: boolean;
  entriesAtStart: number;
  entriesAtEnd: number;
  rowsStored: number;
  rowsPerSecond: number | null;
  /** When the first stored rows showed up. */
  firstRowsAfterSeconds: number | null;
  /** From the first rows seen to the last: the insert rate without start-up and first batch. */
  steadyRowsPerSecond: number | null;
  timeline: { second: number; rowsStored: number; streamEntries: number }[];
}

/** Samples the stream and the stored rows until the worker has stored everything. */
async function watchStore(probe: Probe, waitSeconds: number): Promise<StoreWatch> {
  const started = performance.now();
  const rowsAtStart = await storedRows(probe);
  const atStart = await streamState(probe);
  const timeline: StoreWatch['timeline'] = [];
  let state = atStart;
  let rows = rowsAtStart;
  let first: { at: number; rows: number } | null = null;
  let at: number;
  for (;;) {
    at = (performance.now() - started) / 1000;
    if (rows > rowsAtStart && !first) first = { at, rows };
    if (timeline.length === 0 || at - timeline.at(-1)!.second >= 1) {
      timeline.push({ second: round(at, 1), rowsStored: rows - rowsAtStart, streamEntries: state.entries });
    }
    if ((state.entries === 0 && state.pending === 0) || at > waitSeconds) break;
    await sleep(SETTINGS.sampleMs);
    state = await streamState(probe);
    rows = await storedRows(probe);
  }
  const rowsStored = rows - rowsAtStart;
  const steady = first && at > first.at && rows > first.rows ? (rows - first.rows) / (at - first.at) : null;
  return {
    seconds: round(at, 2),
    emptied: state.entries === 0 && state.pending === 0,
    entriesAtStart: atStart.entries,
    entriesAtEnd: state.entries,
    rowsStored,
    rowsPerSecond: at > 0 && rowsStored > 0 ? round(rowsStored / at) : null,
    firstRowsAfterSeconds: first ? round(first.at, 2) : null,
    steadyRowsPerSecond: steady === null ? null : round(steady),
    timeline,
  };
}

/* -------------------------------- load --------------------------------- */

interface IngestPhase {
  path: string;
  connections: number;
  eventsPerRequest: number;
  durationSeconds: number;
  acceptedRequests: number;
  requestsPerSecond: number;
  acceptedEvents: number;
  eventsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** What the worker stored while the API was under load. */
  rowsStoredDuringPhase: number;
  rowsStoredPerSecondDuringPhase: number;
  streamEntriesAtEnd: number;
}

async function ingestPhase(
  probe: Probe,
  apiUrl: string,
  options: { path: string; seconds: number; connections: number; eventsPerRequest: number },
  makeBody: () => { body: string; eventIds: string[] },
): Promise<IngestPhase> {
  const rowsBefore = await storedRows(probe);
  let acceptedEvents = 0;
  const result = await autocannon({
    url: `${apiUrl}${options.path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        // One request in flight per connection: its context holds the ids of the body sent.
        setupRequest: (request, context) => {
          const { body, eventIds } = makeBody();
          context.eventIds = eventIds;
          return { ...request, body };
        },
        onResponse: (status, _body, context) => {
          if (status !== 202) return;
          const ids = context.eventIds as string[];
          acceptedEvents += ids.length;
          for (const id of ids) acceptedEventIds.push(id);
        },
      },
    ],
  });
  const rowsStored = (await storedRows(probe)) - rowsBefore;
  const { entries } = await streamState(probe);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  const accepted = statusCodes['202'] ?? 0;
  return {
    path: options.path,
    connections: options.connections,
    eventsPerRequest: options.eventsPerRequest,
    durationSeconds: result.duration,
    acceptedRequests: accepted,
    requestsPerSecond: round(accepted / result.duration, 1),
    acceptedEvents,
    eventsPerSecond: round(acceptedEvents / result.duration, 1),
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
    rowsStoredDuringPhase: rowsStored,
    rowsStoredPerSecondDuringPhase: round(rowsStored / result.duration),
    streamEntriesAtEnd: entries,
  };
}

/* ------------------------- phase C: worker alone ----------------------- */

/**
 * Fills the stream with the worker stopped, through the API's own enqueue function (the
 * entry format the API writes, from events its schema validated).
 */
async function preloadStream(probe: Probe, prefix: string) {
  const { entries, eventsPerEntry, concurrency } = SETTINGS.preload;
  const ipAddress = truncateIp('127.0.0.1');
  // No memory bound: this phase measures the worker on a stream filled on purpose.
  const intake = createAnalyticsIntake({
    redis: probe.redis,
    prefix,
    logger: createLogger({ service: 'bench', level: 'warn' }),
    maxStreamBytes: Number.MAX_SAFE_INTEGER,
  });
  const started = performance.now();
  let written = 0;
  let events = 0;
  while (written < entries) {
    const chunk = Math.min(concurrency, entries - written);
    const counts = await Promise.all(
      Array.from({ length: chunk }, () => {
        const generated = makeBatch(eventsPerEntry, SETTINGS.batch.sessionsPerRequest);
        const batch = analyticsBatchSchema.parse({ events: generated });
        return intake.enqueue(batch.events, { ipAddress, clientKey: clientKey('127.0.0.1') });
      }),
    );
    written += chunk;
    events += counts.reduce((sum, count) => sum + count, 0);
  }
  const { entries: inStream } = await streamState(probe);
  return {
    entries: written,
    events,
    streamEntries: inStream,
    seconds: round((performance.now() - started) / 1000, 1),
  };
}

/* ------------------------- phase D: end-to-end lag --------------------- */

/**
 * Batches at a fixed rate; one page view per request is tracked by its event id. The
 * worker stores a stream entry's events in one transaction, so that page view becomes
 * visible with the other events of its request. The database is polled by event id
 * (unique index) every pollMs for the ids not yet seen; an event counts as visible when
 * the first poll that returns it answers, so each lag is an upper bound, too high by at
 * most one poll interval plus the poll's own time.
 */
async function lagPhase(probe: Probe, apiUrl: string) {
  const { seconds, eventsPerSecond, eventsPerRequest, pollMs, waitSeconds } = SETTINGS.lag;
  const requests = Math.round((seconds * eventsPerSecond) / eventsPerRequest);
  const intervalMs = (1000 * eventsPerRequest) / eventsPerSecond;
  const sentAt = new Map<string, number>();
  const unseen = new Set<string>();
  const lags: number[] = [];
  const pollMsTaken: number[] = [];
  const apiLatencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const phaseEventIds: string[] = [];
  let errors = 0;
  let sending = true;

  const poller = (async () => {
    let deadline = Number.POSITIVE_INFINITY;
    while (sending || (unseen.size > 0 && Date.now() < deadline)) {
      if (!sending && deadline === Number.POSITIVE_INFINITY) deadline = Date.now() + waitSeconds * 1000;
      const pollStart = performance.now();
      if (unseen.size > 0) {
        const { rows } = await probe.db.query<{ id: string }>(
          'SELECT event_id::text AS id FROM page_views WHERE event_id = ANY($1::uuid[])',
          [[...unseen]],
        );
        const answeredAt = performance.now();
        for (const { id } of rows) {
          if (unseen.delete(id)) lags.push(answeredAt - sentAt.get(id)!);
        }
        pollMsTaken.push(answeredAt - pollStart);
      }
      await sleep(Math.max(0, pollStart + pollMs - performance.now()));
    }
  })();

  const sends: Promise<void>[] = [];
  const started = performance.now();
  let lastSend = started;
  for (let index = 0; index < requests; index += 1) {
    const wait = started + index * intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    const events = makeBatch(eventsPerRequest, SETTINGS.batch.sessionsPerRequest);
    const tracked = events[0]!.eventId!;
    const body = JSON.stringify({ events });
    lastSend = performance.now();
    sentAt.set(tracked, lastSend);
    unseen.add(tracked);
    const ids = events.map((e) => e.eventId!);
    sends.push(
      fetch(`${apiUrl}/api/analytics/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
        .then(async (response) => {
          await response.text();
          apiLatencies.push(performance.now() - sentAt.get(tracked)!);
          statusCodes[response.status] = (statusCodes[response.status] ?? 0) + 1;
          if (response.status === 202) phaseEventIds.push(...ids);
          // Not accepted: it will never show up.
          else unseen.delete(tracked);
        })
        .catch(() => {
          errors += 1;
          unseen.delete(tracked);
        }),
    );
  }
  const sendSeconds = (lastSend - started) / 1000;
  await Promise.all(sends);
  sending = false;
  await poller;

  lags.sort((a, b) => a - b);
  apiLatencies.sort((a, b) => a - b);
  pollMsTaken.sort((a, b) => a - b);
  for (const id of phaseEventIds) acceptedEventIds.push(id);
  const ms = (value: number | null) => (value === null ? null : round(value, 1));
  return {
    requests,
    events: requests * eventsPerRequest,
    targetEventsPerSecond: eventsPerSecond,
    achievedEventsPerSecond: round(((requests - 1) * eventsPerRequest) / sendSeconds, 1),
    acceptedEvents: phaseEventIds.length,
    statusCodes,
    errors,
    tracked: sentAt.size,
    seen: lags.length,
    missing: unseen.size,
    lagMs: {
      min: ms(lags[0] ?? null),
      p50: ms(percentile(lags, 50)),
      p95: ms(percentile(lags, 95)),
      p99: ms(percentile(lags, 99)),
      max: ms(lags.at(-1) ?? null),
    },
    apiLatencyMs: { p50: ms(percentile(apiLatencies, 50)), p99: ms(percentile(apiLatencies, 99)) },
    pollIntervalMs: pollMs,
    pollQueryMs: { p50: ms(percentile(pollMsTaken, 50)), max: ms(pollMsTaken.at(-1) ?? null) },
  };
}

/* ------------------------ phase E: funnel queries ---------------------- */

/** Share of funnel sessions whose deepest step is each of FUNNEL_STEPS. */
const DEEPEST_STEP_SHARES = [0.4, 0.3, 0.15, 0.03, 0.12];
const CAMPAIGN_SOURCES = [
  ['google', 'cpc'],
  ['facebook', 'social'],
  ['instagram', 'social'],
  ['tiktok', 'social'],
  ['newsletter', 'email'],
  ['youtube', 'video'],
  ['bing', 'cpc'],
  ['taboola', 'native'],
  ['outbrain', 'native'],
  ['linkedin', 'social'],
] as const;
/** Relative frequency of each form action. */
const ACTION_WEIGHTS: Record<(typeof FORM_ACTIONS)[number], number> = {
  view_form: 4,
  start_typing: 3,
  submit_attempt: 2,
  submit_success: 1,
  submit_error: 1,
  cta_click: 2,
  page_exit: 7,
};

const sqlArray = (values: readonly string[]) => `ARRAY[${values.map((value) => `'${value}'`).join(', ')}]`;

/**
 * About a million rows over the last 30 days, written by SQL alone: funnel sessions with
 * the drop-off above across landing pages and campaigns (landing pages and sources skewed,
 * a third without campaign), page views and form interactions of the same sessions.
 */
function syntheticDataSql() {
  const { conversionRows, pageViewRows, formInteractionRows, days, landingPaths, utmSources } = SETTINGS.funnel;
  const stepsPerSession = DEEPEST_STEP_SHARES.reduce((sum, share, index) => sum + share * (index + 1), 0);
  const sessions = Math.round(conversionRows / stepsPerSession);
  let cumulative = 0;
  const depth = DEEPEST_STEP_SHARES.slice(0, -1)
    .map((share, index) => {
      cumulative += share;
      return `WHEN s.r < ${round(cumulative, 4)} THEN ${index + 1}`;
    })
    .join(' ');
  const landingPath = `'/landing-' || lpad((1 + floor(${landingPaths} * random() ^ 1.5))::int::text, 2, '0')`;
  const campaigns = CAMPAIGN_SOURCES.slice(0, utmSources);
  const sourceArray = sqlArray(campaigns.map(([source]) => source));
  const mediumArray = sqlArray(campaigns.map(([, medium]) => medium));
  const within = `now() - random() * interval '${days} days'`;
  const session = `'fs-' || (1 + floor(random() * ${sessions}))::int`;
  const actionSlots = Object.entries(ACTION_WEIGHTS).flatMap(([action, weight]) => Array<string>(weight).fill(action));
  const actions = sqlArray(actionSlots);
  const fields = sqlArray(FIELDS);
  return {
    sessions,
    statements: [
      `SELECT setseed(0.2026)`,
      // MATERIALIZED: each session's random draws are made once, not per reference.
      `WITH sessions AS MATERIALIZED (
        SELECT 'fs-' || i AS session_id, ${landingPath} AS path,
          CASE WHEN random() < 0.33 THEN 0 ELSE 1 + floor(${utmSources} * random() ^ 2)::int END AS source,
          ${within} AS landed_at, random() AS r, interval '1 second' * (10 + floor(random() * 170)) AS gap
        FROM generate_series(1, ${sessions}) AS i
      )
      INSERT INTO conversion_funnel (event_id, session_id, step, metadata, timestamp)
      SELECT gen_random_uuid(), s.session_id, (${sqlArray(FUNNEL_STEPS)})[n],
        CASE WHEN n = 1 THEN jsonb_strip_nulls(jsonb_build_object('path', s.path, 'referrer', 'https://www.google.com/',
          'utm_source', (${sourceArray})[s.source], 'utm_medium', (${mediumArray})[s.source],
          'utm_campaign', CASE WHEN s.source > 0 THEN 'autunno-2026' END))
        ELSE jsonb_build_object('path', s.path) END,
        s.landed_at + (n - 1) * s.gap
      FROM sessions s
      CROSS JOIN LATERAL generate_series(1, CASE ${depth} ELSE ${DEEPEST_STEP_SHARES.length} END) AS n`,
      `INSERT INTO page_views (event_id, session_id, path, referrer, user_agent, ip_address, device, browser, os,
        screen_resolution, language, timestamp)
      SELECT gen_random_uuid(), ${session},
        CASE WHEN random() < 0.8 THEN ${landingPath}
          ELSE (ARRAY['/', '/privacy', '/cookie', '/grazie'])[1 + floor(random() * 4)::int] END,
        (ARRAY['https://www.google.com/', 'https://www.facebook.com/', NULL])[1 + floor(random() * 3)::int],
        '${USER_AGENTS[0]}', '93.44.12.0',
        (ARRAY['Mobile', 'Mobile', 'Desktop', 'Tablet'])[1 + floor(random() * 4)::int],
        'Chrome', 'Android', '412x915', 'it-IT', ${within}
      FROM generate_series(1, ${pageViewRows})`,
      `WITH picks AS MATERIALIZED (
        SELECT ${session} AS session_id, (${actions})[1 + floor(random() * ${actionSlots.length})::int] AS action,
          ${landingPath} AS path, ${within} AS at, random() AS r
        FROM generate_series(1, ${formInteractionRows})
      )
      INSERT INTO form_interactions (event_id, session_id, action, field_name, error_message, time_on_page, scroll_depth,
        path, timestamp)
      SELECT gen_random_uuid(), session_id, action,
        CASE WHEN (action = 'page_exit' AND r < 0.6) OR action IN ('start_typing', 'submit_error')
          THEN (${fields})[1 + floor(${FIELDS.length} * random() ^ 1.3)::int] END,
        CASE WHEN action = 'submit_error' THEN 'Numero di telefono non valido' END,
        CASE WHEN action = 'page_exit' THEN (5 + floor(600 * random() ^ 2))::int END,
        CASE WHEN action = 'page_exit' THEN floor(random() * 101)::int END,
        path, at
      FROM picks`,
      // What autovacuum would have done by the time anyone looks at a month of data.
      `VACUUM (ANALYZE) conversion_funnel, page_views, form_interactions`,
    ],
  };
}

interface PlanSummary {
  top: string;
  topBuffers: string | null;
  scans: string[];
  usesIndexes: boolean;
  spills: string[];
  planningTime: string | null;
  executionTime: string | null;
  plan: string[];
}

const SCAN = /(Parallel )?(Seq Scan|Index Only Scan|Index Scan|Bitmap Heap Scan|Bitmap Index Scan)( Backward)?( using \S+)? on \S+/;

function summarizePlan(plan: string[]): PlanSummary {
  const scans = new Set<string>();
  for (const line of plan) {
    const scan = SCAN.exec(line);
    if (scan) scans.add(scan[0]);
  }
  const find = (pattern: RegExp) => plan.find((line) => pattern.test(line))?.trim() ?? null;
  return {
    top: plan[0]?.trim() ?? '',
    topBuffers: plan[1]?.trim().startsWith('Buffers:') ? plan[1].trim() : null,
    scans: [...scans],
    usesIndexes: [...scans].some((scan) => scan.includes('Index')),
    spills: plan.filter((line) => /external|Disk: /.test(line)).map((line) => line.trim()),
    planningTime: find(/Planning Time/),
    executionTime: find(/Execution Time/),
    plan,
  };
}

const QUERIES = { funnelByDay, timeOnPage, abandonedFields } as const;
type QueryName = keyof typeof QUERIES;

interface QueryTiming {
  query: QueryName;
  windowDays: number;
  runsMs: number[];
  medianMs: number | null;
  rows: number;
  error: string | null;
  /** EXPLAIN (ANALYZE, BUFFERS) of each statement of the last run. */
  plans: PlanSummary[];
}

async function funnelPhase(databaseUrl: string, probe: Probe) {
  const { sessions, statements } = syntheticDataSql();
  log('phase E: replacing the event tables with ~1,000,000 synthetic rows over 30 days');
  const loadStarted = performance.now();
  await probe.db.query(`TRUNCATE ${EVENT_TABLES.join(', ')}`);
  for (const statement of statements) await probe.db.query(statement);
  const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);
  const tableRows: Record<string, number> = {};
  for (const table of EVENT_TABLES) {
    tableRows[table] = Number((await probe.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n);
  }
  const funnelSteps = Object.fromEntries(
    (
      await probe.db.query<{ step: string; n: string }>(
        'SELECT step, count(*) AS n FROM conversion_funnel GROUP BY step ORDER BY count(*) DESC',
      )
    ).rows.map((row) => [row.step, Number(row.n)]),
  );

  const db = createDb(databaseUrl, { applicationName: 'guida-bench', poolMax: 2 });
  onCleanUp(() => db.destroy());
  // What the worker's hourly job does after a deployment: aggregate every closed day.
  log('phase E: the worker rolls up the closed days');
  const rollUpStarted = performance.now();
  const rolledUpDays = await createRollUpFunnel({ db, logger: createLogger({ service: 'bench', level: 'warn' }) })();
  const rollUpSeconds = round((performance.now() - rollUpStarted) / 1000, 1);
  let runQueries: { sql: string; bindings: unknown[] }[] = [];
  db.on('query', (query: { sql: string; bindings?: unknown[] }) => {
    runQueries.push({ sql: query.sql, bindings: query.bindings ?? [] });
  });

  const timings: QueryTiming[] = [];
  const now = Date.now();
  for (const windowDays of SETTINGS.funnel.windowsDays) {
    // The admin's ranges: whole Italian days, today included.
    const filter: FunnelFilter = reportRange({ from: operatorDay(new Date(now - (windowDays - 1) * 86_400_000)) });
    for (const [query, run] of Object.entries(QUERIES) as [QueryName, (typeof QUERIES)[QueryName]][]) {
      log(`phase E: ${query}, ${windowDays} days, ${SETTINGS.funnel.runs} runs`);
      const runsMs: number[] = [];
      let rows = 0;
      let error: string | null = null;
      for (let attempt = 0; attempt < SETTINGS.funnel.runs; attempt += 1) {
        runQueries = [];
        const started = performance.now();
        try {
          rows = (await run(db, filter)).length;
          runsMs.push(round(performance.now() - started, 1));
        } catch (failure) {
          // A statement timeout repeated would only use up the run-time limit.
          error = (failure as Error).message;
          break;
        }
      }
      const sorted = [...runsMs].sort((a, b) => a - b);
      const plans: PlanSummary[] = [];
      for (const captured of error ? [] : runQueries) {
        const explained = await probe.db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${captured.sql}`,
          captured.bindings,
        );
        plans.push(summarizePlan(explained.rows.map((row) => row['QUERY PLAN'])));
      }
      timings.push({ query, windowDays, runsMs, medianMs: percentile(sorted, 50), rows, error, plans });
    }
  }
  return { funnelSessions: sessions, loadSeconds, rollUpSeconds, rolledUpDays, tableRows, funnelSteps, timings };
}

/* ------------------------------- report -------------------------------- */

function printIngestPhase(title: string, phase: IngestPhase) {
  console.log(
    `\n${title} POST ${phase.path} (no rate cap, ${phase.connections} connections, ${phase.durationSeconds} s, ` +
      `${phase.eventsPerRequest} event${phase.eventsPerRequest === 1 ? '' : 's'} per request)`,
  );
  console.log(
    `  events accepted ${number(phase.acceptedEvents)} (${number(phase.eventsPerSecond, 1)}/s) · ` +
      `202 answers ${number(phase.acceptedRequests)} (${number(phase.requestsPerSecond, 1)} req/s)`,
  );
  console.log(
    `  latency ms: mean ${phase.latencyMs.mean} · p50 ${phase.latencyMs.p50} · p90 ${phase.latencyMs.p90} · ` +
      `p99 ${phase.latencyMs.p99} · max ${phase.latencyMs.max}`,
  );
  console.log(
    `  non-2xx ${phase.non2xx} · errors ${phase.errors} · timeouts ${phase.timeouts} · ` +
      `status codes ${JSON.stringify(phase.statusCodes)}`,
  );
  console.log(
    `  worker meanwhile: ${number(phase.rowsStoredDuringPhase)} rows stored ` +
      `(${number(phase.rowsStoredPerSecondDuringPhase)}/s); ${number(phase.streamEntriesAtEnd)} stream entries ` +
      'left at the end',
  );
}

function printWatch(title: string, watch: StoreWatch) {
  if (watch.entriesAtStart === 0) {
    console.log(`  ${title}: no backlog, the worker kept up`);
    return;
  }
  if (watch.emptied && watch.seconds < 1) {
    console.log(
      `  ${title}: ${number(watch.entriesAtStart)} entries → ${number(watch.rowsStored)} rows in ${watch.seconds} s ` +
        '(too short to make a rate of)',
    );
    return;
  }
  console.log(
    `  ${title}: ${number(watch.entriesAtStart)} entries → ${number(watch.rowsStored)} rows in ${watch.seconds} s ` +
      `(${number(watch.rowsPerSecond)} rows/s overall, ${number(watch.steadyRowsPerSecond)} rows/s from the first ` +
      `rows seen at ${number(watch.firstRowsAfterSeconds, 2)} s)` +
      (watch.emptied ? '' : ` · NOT EMPTIED: ${number(watch.entriesAtEnd)} entries left`),
  );
}

/* -------------------------------- main --------------------------------- */

async function main() {
  const startedAt = new Date();
  const serverUrl = localUrl(DATABASE_SERVER_URL, 'DATABASE_URL');
  const redisUrl = localUrl(REDIS_URL, 'REDIS_URL');
  const prefix = `bench-${randomBytes(4).toString('hex')}`;

  log(`recreating database ${BENCH_DATABASE} and migrating it`);
  const databaseUrl = await recreateDatabase(serverUrl, BENCH_DATABASE);
  onCleanUp(async () => {
    const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });

  const redis = createRedis(redisUrl, 'worker');
  onCleanUp(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  const db = new pg.Client({ connectionString: databaseUrl, application_name: 'guida-bench' });
  await db.connect();
  onCleanUp(() => db.end());
  const probe: Probe = { redis, db, key: analyticsStreamKey(prefix) };

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
    SMS_PROVIDER: 'outbox',
    ANALYTICS_RATE_LIMIT_PER_IP: String(MAX_ANALYTICS_RATE_LIMIT),
    // Every request comes from 127.0.0.1: the per-client limits would stop the load itself.
    ANALYTICS_DAILY_MB_PER_CLIENT: String(MAX_ANALYTICS_DAILY_MB),
    SHUTDOWN_GRACE_MS: '5000',
  };
  const processEnv = isolatedEnv(env);
  onCleanUp(stopServices);
  log(`starting api (port ${port}) and worker, LOG_LEVEL=warn, Redis prefix ${prefix}`);
  const api = startService('api', 'api/dist/server.js', processEnv);
  const workers = [startService('worker', 'worker/dist/index.js', processEnv)];
  await Promise.race([Promise.all([waitForReady(apiUrl), waitForConsumer(probe)]), serviceCrashed]);

  const phases = await Promise.race([
    (async () => {
      const { single, batch } = SETTINGS;
      log(`phase A: ${single.seconds} s of single page views, ${single.connections} connections`);
      const sessions = Array.from({ length: 1_000 }, newSessionId);
      const a = await withCpu(() =>
        ingestPhase(probe, apiUrl, { path: '/api/analytics/page-view', ...single, eventsPerRequest: 1 }, () => {
          const view = pageView(pick(sessions), new Date().toISOString());
          return { body: JSON.stringify(view), eventIds: [view.eventId] };
        }),
      );
      log('phase A: waiting for the worker to empty the stream');
      const drainA = await withCpu(() => watchStore(probe, SETTINGS.drainWaitSeconds));

      log(
        `phase B: ${batch.seconds} s of batches of ${batch.eventsPerRequest} events, ` +
          `${batch.connections} connections`,
      );
      const b = await withCpu(() =>
        ingestPhase(probe, apiUrl, { path: '/api/analytics/batch', ...batch }, () => {
          const events = makeBatch(batch.eventsPerRequest, batch.sessionsPerRequest);
          return { body: JSON.stringify({ events }), eventIds: events.map((e) => e.eventId!) };
        }),
      );
      log('phase B: waiting for the worker to empty the stream');
      const drainB = await withCpu(() => watchStore(probe, SETTINGS.drainWaitSeconds));

      const { entries, eventsPerEntry } = SETTINGS.preload;
      log(`phase C: worker stopped, preloading ${number(entries)} entries of ${eventsPerEntry} events`);
      await stopService(workers[0]!);
      const rowsBeforeC = Number((await db.query<{ n: string }>(ROWS_COUNTED)).rows[0]?.n);
      const preload = await preloadStream(probe, prefix);
      log('phase C: worker started, measuring until the stream is empty');
      const c = await withCpu(async () => {
        workers.push(startService('worker', 'worker/dist/index.js', processEnv));
        return watchStore(probe, SETTINGS.drainWaitSeconds);
      });
      const storedC = Number((await db.query<{ n: string }>(ROWS_COUNTED)).rows[0]?.n) - rowsBeforeC;

      const { lag } = SETTINGS;
      log(`phase D: ${lag.seconds} s at ${number(lag.eventsPerSecond)} events/s in batches of ${lag.eventsPerRequest}`);
      const d = await withCpu(() => lagPhase(probe, apiUrl));
      return { a, drainA, b, drainB, c: { preload, ...c, rowsCounted: storedC }, d };
    })(),
    serviceCrashed,
  ]);

  log('checking the database');
  const storedAccepted = Number((await db.query<{ n: string }>(STORED_OF, [acceptedEventIds])).rows[0]?.n);
  const rowsCounted = Number((await db.query<{ n: string }>(ROWS_COUNTED)).rows[0]?.n);
  const rowsById = await storedRows(probe);
  const { a, drainA, b, drainB, c, d } = phases;
  const cutOffAtMost = a.connections * a.eventsPerRequest + b.connections * b.eventsPerRequest;
  const sanity = {
    acceptedEvents: acceptedEventIds.length,
    acceptedAndStored: storedAccepted,
    rowsInTables: rowsCounted,
    preloadedEvents: c.preload.events,
    // A timed phase ends with up to one request in flight per connection, stored but unanswered.
    cutOffAtMost,
    rowCounterExact: rowsById === rowsCounted,
  };
  const extraRows = rowsCounted - sanity.preloadedEvents - sanity.acceptedEvents;
  const nothingLost =
    storedAccepted === sanity.acceptedEvents &&
    c.rowsCounted === c.preload.events &&
    extraRows >= 0 &&
    extraRows <= cutOffAtMost;
  const logLines = { api: api.logLines, worker: workers.reduce((sum, w) => sum + w.logLines, 0) };
  await stopServices();

  const e = await funnelPhase(databaseUrl, probe);

  const bars = [
    {
      bar: `API accepts ≥ ${number(BARS.acceptedEventsPerSecond)} events/s (phase B, batch endpoint the site uses)`,
      value: `${number(b.eventsPerSecond, 1)} events/s`,
      pass: b.eventsPerSecond >= BARS.acceptedEventsPerSecond && b.non2xx === 0 && b.errors === 0,
    },
    {
      bar: `worker stores ≥ ${number(BARS.storedRowsPerSecond)} rows/s (phase C, preloaded stream)`,
      value: `${number(c.steadyRowsPerSecond)} rows/s`,
      pass: (c.steadyRowsPerSecond ?? 0) >= BARS.storedRowsPerSecond && c.emptied && c.rowsCounted === c.preload.events,
    },
    {
      bar: `end-to-end lag p99 ≤ ${number(BARS.lagP99Ms)} ms (phase D)`,
      value: `${number(d.lagMs.p99, 1)} ms, ${d.missing} missing`,
      pass: d.lagMs.p99 !== null && d.lagMs.p99 <= BARS.lagP99Ms && d.missing === 0 && d.errors === 0,
    },
  ];
  const ownTargets = [
    {
      target: `single-event endpoint ≥ ${number(BARS.acceptedEventsPerSecond)} events/s (phase A, for information)`,
      value: `${number(a.eventsPerSecond, 1)} events/s`,
      pass: a.eventsPerSecond >= BARS.acceptedEventsPerSecond && a.non2xx === 0 && a.errors === 0,
    },
    ...e.timings.map((t) => ({
      target: `${t.query}, ${t.windowDays} days, < ${number(BARS.funnelQueryMs)} ms (median of ${t.runsMs.length})`,
      value: t.error ? `failed: ${t.error}` : `${number(t.medianMs, 1)} ms`,
      pass: t.error === null && t.medianMs !== null && t.medianMs < BARS.funnelQueryMs,
    })),
  ];

  /* ----- print ----- */
  console.log(
    `\nAnalytics ingest benchmark · ${os.cpus().length} CPUs · ${number(os.totalmem() / 2 ** 30, 1)} GiB RAM · ` +
      `Node ${process.version}`,
  );
  console.log(
    'API and worker run with LOG_LEVEL=warn; load generator, API, worker, PostgreSQL and Redis share this machine.',
  );
  printIngestPhase('Phase A · single-event endpoint', a);
  printWatch('then the worker emptied the stream', drainA);
  printIngestPhase('Phase B · batch endpoint', b);
  printWatch('then the worker emptied the stream', drainB);
  const overall = (phase: IngestPhase, watch: StoreWatch) =>
    round((phase.rowsStoredDuringPhase + watch.rowsStored) / (phase.durationSeconds + watch.seconds));
  console.log(
    `  overall, load and drain: A ${number(overall(a, drainA))} rows/s · B ${number(overall(b, drainB))} rows/s`,
  );
  console.log(
    `\nPhase C · worker alone on a preloaded stream (${number(c.preload.entries)} entries, ` +
      `${number(c.preload.events)} events, written in ${c.preload.seconds} s with the worker stopped)`,
  );
  console.log(
    `  ${number(c.rowsCounted)} rows stored in ${c.seconds} s from the worker's start: ` +
      `${number(c.rowsPerSecond)} rows/s ` +
      `including start-up; first rows after ${number(c.firstRowsAfterSeconds, 2)} s, then ` +
      `${number(c.steadyRowsPerSecond)} rows/s` +
      (c.emptied ? '' : ` · NOT EMPTIED: ${number(c.entriesAtEnd)} entries left`),
  );
  console.log(
    `\nPhase D · end-to-end lag (${number(d.events)} events in ${d.requests} batches, ` +
      `${number(d.achievedEventsPerSecond, 1)} events/s of ${number(d.targetEventsPerSecond)} targeted)`,
  );
  console.log(
    `  from sending to visible in page_views, ms: p50 ${number(d.lagMs.p50, 1)} · p95 ${number(d.lagMs.p95, 1)} · ` +
      `p99 ${number(d.lagMs.p99, 1)} · max ${number(d.lagMs.max, 1)} (min ${number(d.lagMs.min, 1)})`,
  );
  console.log(
    `  upper bounds: polled every ${d.pollIntervalMs} ms (poll query p50 ${number(d.pollQueryMs.p50, 1)} ms, ` +
      `max ${number(d.pollQueryMs.max, 1)} ms) · API answered 202 in p50 ${number(d.apiLatencyMs.p50, 1)} ms, ` +
      `p99 ${number(d.apiLatencyMs.p99, 1)} ms · status codes ${JSON.stringify(d.statusCodes)} · ` +
      `errors ${d.errors} · missing ${d.missing}`,
  );
  const syntheticRows = Object.values(e.tableRows).reduce((sum, n) => sum + n, 0);
  console.log(
    `\nPhase E · funnel queries on ${number(syntheticRows)} synthetic rows ` +
      `(written and vacuumed in ${e.loadSeconds} s; API and worker stopped)`,
  );
  console.log(
    `  the worker's rollup aggregated ${e.rolledUpDays} closed days in ${e.rollUpSeconds} s; ` +
      `funnelByDay reads them from funnel_daily and the last ${OPEN_DAYS} days from the raw rows`,
  );
  console.log(`  rows: ${Object.entries(e.tableRows).map(([table, n]) => `${table} ${number(n)}`).join(' · ')}`);
  const steps = Object.entries(e.funnelSteps).map(([step, n]) => `${step} ${number(n)}`);
  console.log(`  funnel steps (rows): ${steps.join(' · ')}`);
  console.log(`  ${'query'.padEnd(18)}${'days'.padStart(6)}${'median ms'.padStart(12)}${'rows'.padStart(8)}  runs ms`);
  for (const t of e.timings) {
    console.log(
      `  ${t.query.padEnd(18)}${String(t.windowDays).padStart(6)}${number(t.medianMs, 1).padStart(12)}` +
        `${String(t.rows).padStart(8)}  ${t.error ? `failed: ${t.error}` : t.runsMs.join(', ')}`,
    );
  }
  for (const { query, windowDays, plans } of e.timings) {
    for (const [index, plan] of plans.entries()) {
      const statement = plans.length > 1 ? ` (statement ${index + 1} of ${plans.length})` : '';
      console.log(`  EXPLAIN (ANALYZE, BUFFERS) ${query}, ${windowDays} days${statement}: ${plan.executionTime}`);
      console.log(`    top: ${plan.top}`);
      if (plan.topBuffers) console.log(`    ${plan.topBuffers}`);
      console.log(`    scans: ${plan.scans.join(' · ')} (indexes used: ${plan.usesIndexes ? 'yes' : 'no'})`);
      if (plan.spills.length > 0) {
        const disk = plan.spills.map((line) => /Disk: (\d+kB)/.exec(line)?.[1]).filter(Boolean);
        console.log(`    sorts spilled to disk (work_mem): ${plan.spills.length} (${disk.join(', ')})`);
      }
    }
  }
  // Over a drain of a few samples the shares are noise.
  const drainCpu = (watch: StoreWatch & { cpuCores: CpuCores | null }) => (watch.seconds >= 1 ? watch.cpuCores : null);
  const cpuRows: [string, CpuCores | null][] = [
    ['A single', a.cpuCores],
    ['A drain', drainCpu(drainA)],
    ['B batch', b.cpuCores],
    ['B drain', drainCpu(drainB)],
    ['C worker alone', c.cpuCores],
    ['D lag', d.cpuCores],
  ];
  printCpu(cpuRows, 'load generator and the database polling');
  const busyPhases = cpuRows
    .filter(([, cores]) => cores !== null && cores.other >= BUSY_MACHINE_CORES)
    .map(([name, cores]) => `${name} (${cores!.other.toFixed(2)})`);
  if (busyPhases.length > 0) {
    console.log(
      `  Other processes on this machine took CPU during: ${busyPhases.join(', ')}; ` +
        'the figures of those phases are understated.',
    );
  }
  console.log('\nSanity');
  console.log(
    `  events answered 202 ${number(sanity.acceptedEvents)} · ` +
      `found in the database ${number(sanity.acceptedAndStored)} · ` +
      `preloaded ${number(sanity.preloadedEvents)} · rows in the four tables ${number(sanity.rowsInTables)}`,
  );
  if (extraRows !== 0) {
    console.log(
      `  ${number(extraRows)} rows more than answered and preloaded events: requests still in flight when a timed ` +
        `phase ended (at most ${number(cutOffAtMost)} events); stored, but their answers were not awaited`,
    );
  }
  console.log(`  row counter (highest ids) agrees with count(*): ${sanity.rowCounterExact ? 'yes' : 'NO'}`);
  console.log(`  api wrote ${logLines.api} log lines, worker ${logLines.worker} (warn or worse)`);
  console.log(`  nothing lost: ${nothingLost ? 'yes' : 'NO'}`);

  console.log('\nBars (product)');
  for (const { bar, value, pass } of bars) console.log(`  ${verdict(pass)}  ${bar}: ${value}`);
  console.log('Own targets (not product bars)');
  for (const { target, value, pass } of ownTargets) console.log(`  ${verdict(pass)}  ${target}: ${value}`);

  const finishedAt = new Date();
  const results = {
    benchmark: 'analytics',
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    totalSeconds: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1),
    machine: machineFacts(),
    config: { settings: SETTINGS, bars: BARS, env },
    bars,
    ownTargets,
    phases: {
      singleEvents: a,
      drainAfterSingleEvents: drainA,
      batches: b,
      drainAfterBatches: drainB,
      overallRowsPerSecond: { single: overall(a, drainA), batches: overall(b, drainB) },
      workerAlone: c,
      lag: d,
      funnelQueries: e,
    },
    busyPhases,
    sanity: { ...sanity, extraRows, nothingLost, logLines },
  };
  const file = writeResults('analytics', startedAt, results);
  console.log(`\nResults: ${file} (and bench/results/analytics-latest.json) · total ${results.totalSeconds} s`);
  if (!nothingLost) throw new Error('accepted analytics events are missing from the database');
}

await runBenchmark('analytics', SETTINGS.runLimitMinutes, main);
