/**
 * Abuse benchmark (`npm run bench:abuse`). The bundled API and worker run as real
 * processes in the configuration `npm start` gives (.env.example), on a database of their
 * own, sending SMS with the real twilio client to a local Twilio-compatible server. For
 * `loadSeconds` an attacker plays SMS pumping with a number list concentrated on a few
 * number blocks, from one IPv6 /64 (a new address per request, through X-Forwarded-For:
 * the API trusts its loopback proxy) and from a cross-site page (Sec-Fetch-Site:
 * cross-site, a foreign Origin, a form post, many IPv4 addresses), while honest visitors
 * (an IPv4 address and a real Italian or Swiss mobile each) submit at a steady rate.
 * Prints SMS sent against the budgets (in the run and extrapolated per hour), SMS to the
 * attacker's numbers, the honest visitors' time from 201 to the provider call, and what
 * the product answered; writes bench/results/abuse-*.json. It reports whatever the
 * product answers (403 for cross-site posts, a challenge, 429), so it runs unchanged as
 * those defences land.
 */
import http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseEnv } from 'node:util';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import pg from 'pg';
import { z } from 'zod';
import { smsBudgetEnv } from '@guida/shared/config';
import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import { smsBudgetOverview } from '@guida/shared/deliveries/sms-deliveries';
import { createDb } from '@guida/shared/server/db';
import { createRedis } from '@guida/shared/server/redis';
import { startFakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../scripts/lib/defaults.mjs';
import { ROOT } from '../scripts/lib/output.mjs';
import {
  benchLog,
  deleteKeys,
  isolatedEnv,
  localUrl,
  machineFacts,
  number,
  onCleanUp,
  percentile,
  recreateDatabase,
  round,
  runBenchmark,
  serviceCrashed,
  startService,
  stopServices,
  verdict,
  waitForReady,
  writeResults,
} from './bench-support';

const SETTINGS = {
  loadSeconds: 45,
  /** Requests per second of each actor. */
  honestPerSecond: 2,
  ipv6PerSecond: 5,
  crossSitePerSecond: 12,
  /** A script on many IPv4 addresses posting the no-JavaScript form: only the budgets stop it. */
  botnetPerSecond: 10,
  /** After the load, how long the honest visitors' SMS may still take (the run stays under 90 s). */
  drainSeconds: 30,
  runLimitMinutes: 4,
};

const BARS = { honestSmsP99Ms: 120_000 };

const BENCH_DATABASE = 'guida_bench_abuse';
const DATABASE_SERVER_URL = localUrl(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, 'DATABASE_URL');
const REDIS_URL = localUrl(process.env.REDIS_URL || DEFAULT_REDIS_URL, 'REDIS_URL');

const log = benchLog('abuse');

/* ------------------------------ numbers -------------------------------- */

/** The attacker's list: premium-looking ranges, all in three number blocks. */
const ATTACKER_BLOCKS = ['393801', '393802', '417601'];
/** Italian and Swiss mobile prefixes real visitors have (national significant number). */
const IT_PREFIXES = ['320', '324', '327', '328', '329', '330', '331', '333', '334', '335', '336', '338', '339', '340', '342', '345', '346', '347', '348', '349', '350', '351', '366', '368', '370', '371', '377', '388', '389', '391', '392', '393'];
const CH_PREFIXES = ['75', '76', '77', '78', '79'];

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');
const blockOf = (telefono: string) => telefono.slice(1, 7);

/** A real visitor's mobile: 4 in 5 Italian, never in the attacker's blocks. */
function honestPhone(): string {
  for (;;) {
    const phone =
      randomInt(5) < 4
        ? `+39${IT_PREFIXES[randomInt(IT_PREFIXES.length)]}${digits(7)}`
        : `+41${CH_PREFIXES[randomInt(CH_PREFIXES.length)]}${digits(7)}`;
    if (!ATTACKER_BLOCKS.includes(blockOf(phone))) return phone;
  }
}

/** One of the attacker's numbers: the block, then the rest of an Italian or Swiss mobile. */
function attackerPhone(): string {
  const block = ATTACKER_BLOCKS[randomInt(ATTACKER_BLOCKS.length)]!;
  // +39 and 10 national digits; +41 and 9.
  return `+${block}${digits(block.startsWith('39') ? 6 : 5)}`;
}

const ipv4 = (first: number) => `${first}.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`;
const IPV6_PREFIX = '2001:db8:4a7:1c';
const ipv6 = () => `${IPV6_PREFIX}:${randomBytes(8).toString('hex').match(/.{4}/g)!.join(':')}`;

/* ------------------------------ actors --------------------------------- */

type Actor = 'honest' | 'ipv6' | 'crossSite' | 'botnet';

interface Sent {
  actor: Actor;
  telefono: string;
  status: number | null;
  /** Date.now() when the answer ended (the fake Twilio's clock too). */
  answeredAt: number;
}

const fields = (telefono: string, index: number) => ({
  nome: 'Giulia',
  cognome: 'Bianchi',
  email: `abuse${telefono.slice(1)}.${index}@example.com`,
  telefono,
  ebookType: 'general',
  source: 'landing-page',
  landingPath: '/',
});

function request(apiUrl: string, agent: http.Agent, actor: Actor, index: number): { telefono: string; send(): Promise<number | null> } {
  const telefono = actor === 'honest' ? honestPhone() : attackerPhone();
  const url = new URL('/api/ebook-request', apiUrl);
  let body: string;
  const headers: Record<string, string> = {};
  if (actor === 'crossSite') {
    // What a page on another site can make its visitors' browsers send: a form post.
    body = new URLSearchParams({ ...fields(telefono, index), gdprConsent: 'on' }).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['origin'] = 'https://premi-facili.example';
    headers['sec-fetch-site'] = 'cross-site';
    headers['sec-fetch-mode'] = 'navigate';
    headers['x-forwarded-for'] = ipv4(100 + randomInt(100));
  } else if (actor === 'botnet') {
    // Not a browser: no Origin, no Sec-Fetch-Site, a fresh address each time, and the
    // plain form post that cannot be asked for a proof-of-work.
    body = new URLSearchParams({ ...fields(telefono, index), gdprConsent: 'on' }).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['x-forwarded-for'] = ipv4(1 + randomInt(9));
  } else {
    body = JSON.stringify({ ...fields(telefono, index), gdprConsent: true });
    headers['content-type'] = 'application/json';
    headers['x-forwarded-for'] = actor === 'ipv6' ? ipv6() : ipv4(10 + randomInt(80));
    if (actor === 'honest') {
      headers['origin'] = apiUrl;
      headers['sec-fetch-site'] = 'same-origin';
    }
  }
  const post = (text: string) => call(agent, url, 'POST', { ...headers, 'content-length': String(Buffer.byteLength(text)) }, text);
  return {
    telefono,
    async send() {
      const answer = await post(body);
      if (actor !== 'honest' || answer.status !== 428) return answer.status;
      // What the form does when the API asks for a proof-of-work: fetch, solve, send again.
      challenged += 1;
      const issued = await call(agent, new URL('/api/challenge', apiUrl), 'GET', { 'x-forwarded-for': headers['x-forwarded-for']! });
      const challenge = JSON.parse(issued.body) as Challenge;
      const solution = await solveChallenge({ challenge, deriveKey });
      const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      return (await post(JSON.stringify({ ...JSON.parse(body), altcha }))).status;
    },
  };
}

/** Honest visitors whose form was asked for a proof-of-work and solved it, as a browser does. */
let challenged = 0;

function call(agent: http.Agent, url: URL, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number | null; body: string }>((resolve) => {
    const outgoing = http.request(url, { method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString() }));
    });
    outgoing.on('error', () => resolve({ status: null, body: '' }));
    outgoing.end(body);
  });
}

/** `perSecond` requests a second for the load, each timed to its due moment. */
async function play(apiUrl: string, agent: http.Agent, actor: Actor, perSecond: number, sent: Sent[]) {
  const total = Math.round(SETTINGS.loadSeconds * perSecond);
  const started = Date.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < total; index += 1) {
    const wait = started + (index * 1000) / perSecond - Date.now();
    if (wait > 0) await sleep(wait);
    const { telefono, send } = request(apiUrl, agent, actor, index);
    inFlight.push(
      send().then((status) => {
        sent.push({ actor, telefono, status, answeredAt: Date.now() });
      }),
    );
  }
  await Promise.all(inFlight);
}

/* ------------------------------- report -------------------------------- */

function statusCounts(rows: Sent[]) {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[String(row.status ?? 'error')] = (counts[String(row.status ?? 'error')] ?? 0) + 1;
  return counts;
}

function latency(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? null,
  };
}

/** The configuration `npm start` runs with: .env.example (an empty value means the default). */
function npmStartConfiguration(): Record<string, string> {
  const values = parseEnv(readFileSync(join(ROOT, '.env.example'), 'utf8'));
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
}

async function main() {
  const startedAt = new Date();
  const databaseUrl = await recreateDatabase(DATABASE_SERVER_URL, BENCH_DATABASE);
  const prefix = `bench-abuse-${randomBytes(4).toString('hex')}`;
  const redis = createRedis(REDIS_URL, 'worker');
  onCleanUp(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  const twilio = await startFakeTwilio();
  onCleanUp(() => twilio.close());
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...npmStartConfiguration(),
    PORT: String(port),
    PUBLIC_BASE_URL: apiUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    SMS_PROVIDER: 'twilio',
    TWILIO_FROM: 'GuidaFin',
    TWILIO_API_BASE_URL: twilio.url,
  };
  onCleanUp(stopServices);
  log(`starting the api (port ${port}) and the worker in the default configuration`);
  startService('api', 'api/dist/server.js', isolatedEnv(env, twilio));
  startService('worker', 'worker/dist/index.js', isolatedEnv(env, twilio));
  await Promise.race([waitForReady(apiUrl), serviceCrashed]);

  const { loadSeconds, honestPerSecond, ipv6PerSecond, crossSitePerSecond, botnetPerSecond, drainSeconds } = SETTINGS;
  log(
    `for ${loadSeconds} s: honest visitors ${honestPerSecond}/s, attacker ${ipv6PerSecond}/s from one IPv6 /64, ` +
      `${crossSitePerSecond}/s from a cross-site page and ${botnetPerSecond}/s of form posts from many IPv4 addresses, ` +
      `numbers in blocks ${ATTACKER_BLOCKS.join(', ')}`,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 500 });
  const sent: Sent[] = [];
  const loadStartedAt = Date.now();
  await Promise.race([
    Promise.all([
      play(apiUrl, agent, 'honest', honestPerSecond, sent),
      play(apiUrl, agent, 'ipv6', ipv6PerSecond, sent),
      play(apiUrl, agent, 'crossSite', crossSitePerSecond, sent),
      play(apiUrl, agent, 'botnet', botnetPerSecond, sent),
    ]),
    serviceCrashed,
  ]);
  const loadEndedAt = Date.now();

  const honest = sent.filter((row) => row.actor === 'honest' && row.status === 201);
  const firstSmsAt = () => {
    const first = new Map<string, number>();
    for (const message of twilio.messages) if (!first.has(message.to)) first.set(message.to, message.receivedAt);
    return first;
  };
  log(`load done; waiting up to ${drainSeconds} s for the honest visitors' SMS`);
  const drainDeadline = Date.now() + drainSeconds * 1000;
  while (Date.now() < drainDeadline && !honest.every((row) => firstSmsAt().has(row.telefono))) await sleep(250);
  const endedAt = Date.now();
  agent.destroy();

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  onCleanUp(() => db.end());
  const smsStatuses = Object.fromEntries(
    (await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM sms_messages GROUP BY 1 ORDER BY 1')).rows.map(
      (row) => [row.status, row.n],
    ),
  );
  const leadsStored = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ebook_requests')).rows[0]!.n;

  const first = firstSmsAt();
  const honestLatencies = honest.flatMap((row) => (first.has(row.telefono) ? [first.get(row.telefono)! - row.answeredAt] : []));
  const honestMissing = honest.filter((row) => !first.has(row.telefono)).length;
  // An SMS not there at the end waited at least until the end: counted so, the p99 cannot hide it.
  const honestTimes = latency([...honestLatencies, ...honest.filter((row) => !first.has(row.telefono)).map((row) => endedAt - row.answeredAt)]);
  const perPhone = new Map<string, number>();
  for (const message of twilio.messages) perPhone.set(message.to, (perPhone.get(message.to) ?? 0) + 1);
  const duplicates = [...perPhone.values()].filter((count) => count > 1).length;
  const attackerSms = twilio.messages.filter((message) => ATTACKER_BLOCKS.includes(blockOf(message.to)));
  const runSeconds = (endedAt - loadStartedAt) / 1000;
  const perHour = (count: number) => round((count / runSeconds) * 3600);
  // The budgets as the worker reads them, and its counts at the end of the run.
  const limits = smsBudgetLimits(z.object(smsBudgetEnv).parse(env));
  const knex = createDb(databaseUrl, { applicationName: 'bench-abuse', poolMax: 2 });
  onCleanUp(() => knex.destroy());
  const overview = await smsBudgetOverview(knex, { limits, now: () => new Date() });
  const budgets = { globalPerHour: limits.global.hour, blockPerHour: limits.block.hour };
  const attackerBudget = budgets.blockPerHour * ATTACKER_BLOCKS.length;
  const answers = {
    honest: statusCounts(sent.filter((row) => row.actor === 'honest')),
    ipv6: statusCounts(sent.filter((row) => row.actor === 'ipv6')),
    crossSite: statusCounts(sent.filter((row) => row.actor === 'crossSite')),
    botnet: statusCounts(sent.filter((row) => row.actor === 'botnet')),
  };
  const count = (status: number) => sent.filter((row) => row.status === status).length;
  const pass = {
    honestSmsP99: honestTimes.p99 !== null && honestTimes.p99 <= BARS.honestSmsP99Ms,
    attackerSmsWithinBudget: attackerSms.length <= attackerBudget,
    noDuplicates: duplicates === 0,
  };

  console.log(`\nAbuse benchmark · ${loadSeconds} s of load, run ${round(runSeconds, 1)} s · default configuration`);
  console.log(
    `  answers: honest ${JSON.stringify(answers.honest)} · IPv6 /64 ${JSON.stringify(answers.ipv6)} · cross-site ${JSON.stringify(answers.crossSite)} · ` +
      `form posts from many IPv4 ${JSON.stringify(answers.botnet)}`,
  );
  console.log(`  honest visitors who solved a proof-of-work first (as the form does when asked): ${challenged}`);
  console.log(`  403 ${count(403)} · 429 ${count(429)} · leads stored ${leadsStored} · SMS statuses ${JSON.stringify(smsStatuses)}`);
  console.log(
    `  SMS sent ${twilio.messages.length} in the run (the run's pace kept for an hour: ` +
      `${number(perHour(twilio.messages.length))}/h; the budgets stop the hour at ${budgets.globalPerHour} in total)`,
  );
  console.log(
    `  SMS to attacker numbers ${attackerSms.length} (the run's pace kept for an hour: ${number(perHour(attackerSms.length))}/h) · ` +
      `budget ${budgets.blockPerHour}/h per block × ${ATTACKER_BLOCKS.length} blocks = ${attackerBudget}/h · ` +
      `held ${smsStatuses.held ?? 0}  ${verdict(pass.attackerSmsWithinBudget)}`,
  );
  console.log(
    `  honest SMS, 201 → provider: p50 ${number(honestTimes.p50)} ms · p99 ${number(honestTimes.p99)} ms · ` +
      `max ${number(honestTimes.max)} ms (${honest.length} honest leads, ${honestMissing} without SMS at the end) · ` +
      `bar p99 ≤ ${BARS.honestSmsP99Ms / 1000} s  ${verdict(pass.honestSmsP99)}`,
  );
  console.log(`  phones with more than one SMS: ${duplicates}  ${verdict(pass.noDuplicates)}`);
  console.log('  budgets at the end (count in the window / budget):');
  for (const entry of overview.budgets) {
    const name = `${entry.scope}${entry.key ? ` ${entry.key}` : ''} per ${entry.window}`;
    console.log(`    ${name.padEnd(24)}${String(entry.count).padStart(6)} / ${entry.limit}${entry.tripped ? '  tripped' : ''}`);
  }

  const file = writeResults('abuse', startedAt, {
    startedAt: startedAt.toISOString(),
    machine: machineFacts(),
    settings: SETTINGS,
    attackerBlocks: ATTACKER_BLOCKS,
    ipv6Prefix: `${IPV6_PREFIX}::/64`,
    runSeconds: round(runSeconds, 1),
    loadSeconds: round((loadEndedAt - loadStartedAt) / 1000, 1),
    answers,
    honestChallenged: challenged,
    totals: { forbidden403: count(403), limited429: count(429), created201: count(201), leadsStored },
    smsStatuses,
    sms: {
      sent: twilio.messages.length,
      sentPerHourExtrapolated: perHour(twilio.messages.length),
      toAttackerNumbers: attackerSms.length,
      toAttackerNumbersPerHourExtrapolated: perHour(attackerSms.length),
      held: smsStatuses.held ?? 0,
      phonesWithMoreThanOne: duplicates,
    },
    budgets: { limits, attackerBlocksPerHour: attackerBudget, atTheEnd: overview.budgets },
    honestTimeToSmsMs: { ...honestTimes, withoutSmsAtTheEnd: honestMissing },
    bars: BARS,
    pass,
  });
  log(`results written to ${file}`);
  if (!Object.values(pass).every(Boolean)) process.exitCode = 1;
}

await runBenchmark('abuse', SETTINGS.runLimitMinutes, main);
