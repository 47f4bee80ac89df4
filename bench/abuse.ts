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
 *
 * A second phase, on a fresh database and fresh processes, plays a **distributed** attack
 * (issue 28, decision 052): junk leads from 500 addresses in 50 networks (IPv4 /24s and
 * IPv6 /48s), numbers spread over 400 number blocks, every challenge solved as a browser
 * would, at a pace several times SMS_BUDGET_GLOBAL_PER_HOUR, while honest visitors take
 * the real path: a page view in the analytics stream, a few seconds of reading, the form,
 * the proof-of-work when demanded. It prints the SMS sent to attacker numbers against the
 * budgets and the honest visitors' wait for their SMS (p50/p99), on the default budgets.
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
import { SMS_TRANSITIONS } from '@guida/shared/deliveries/delivery-statuses';
import { smsBudgetLimits, untrustedLimit } from '@guida/shared/deliveries/sms-budget';
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
  runLimitMinutes: 16,
};

/** The distributed phase (decision 052), on the default budgets of .env.example. */
const DISTRIBUTED = {
  /** At this pace the untrusted share (750 of 1,500 an hour) is full after about 4 minutes: half the load runs behind it. */
  loadSeconds: 480,
  /**
   * Junk leads a second, each with its proof-of-work solved once the API demands it: 3/s is
   * 10,800 an hour, 7.2 times the default SMS_BUDGET_GLOBAL_PER_HOUR (1,500).
   */
  attackerPerSecond: 3,
  ipv4Networks: 40,
  ipv6Networks: 10,
  addressesPerNetwork: 10,
  /** 320 Italian and 80 Swiss mobile blocks, taken in turn. */
  numberBlocks: 400,
  /** Honest visitors arriving a second; each reads the page this long before sending the form. */
  honestPerSecond: 0.5,
  honestReadingSeconds: 8,
  drainSeconds: 60,
  /** The pace the attack must keep, in multiples of the global hourly budget (issue 28). */
  minimumAttackFactor: 5,
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
      const altcha = await solvedAltcha(agent, apiUrl, headers['x-forwarded-for']!);
      return (await post(JSON.stringify({ ...JSON.parse(body), altcha }))).status;
    },
  };
}

/** Honest visitors whose form was asked for a proof-of-work and solved it, as a browser does. */
let challenged = 0;

/** The widget's work: a challenge fetched from `ip`'s address and solved, as the form's `altcha` field. */
async function solvedAltcha(agent: http.Agent, apiUrl: string, ip: string) {
  const issued = await call(agent, new URL('/api/challenge', apiUrl), 'GET', { 'x-forwarded-for': ip });
  const challenge = JSON.parse(issued.body) as Challenge;
  // No time limit (the library's is 90 s): here one process solves for every visitor and
  // the attacker at once, and a solution given up would read as the product refusing it.
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 0 });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

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

function statusCounts(rows: { status: number | null }[]) {
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

interface Product {
  apiUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  /** Stops the API, the worker and the fake Twilio (the next phase starts its own). */
  stop(): Promise<void>;
}

/**
 * The bundled API and worker in the configuration `npm start` gives, on a fresh database
 * and Redis prefix of their own, sending SMS to a fresh fake Twilio.
 */
async function startProduct(database: string): Promise<Product> {
  const databaseUrl = await recreateDatabase(DATABASE_SERVER_URL, database);
  const prefix = `bench-abuse-${randomBytes(4).toString('hex')}`;
  const redis = createRedis(REDIS_URL, 'worker');
  onCleanUp(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  const twilio = await startFakeTwilio();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopServices();
    await twilio.close();
  };
  onCleanUp(stop);
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
  log(`starting the api (port ${port}) and the worker in the default configuration`);
  startService('api', 'api/dist/server.js', isolatedEnv(env, twilio));
  startService('worker', 'worker/dist/index.js', isolatedEnv(env, twilio));
  await Promise.race([waitForReady(apiUrl), serviceCrashed]);
  return { apiUrl, databaseUrl, env, twilio, stop };
}

/** Each phone's first SMS at the fake Twilio, by its clock (Date.now()). */
function firstSmsAt(twilio: Product['twilio']) {
  const first = new Map<string, number>();
  for (const message of twilio.messages) if (!first.has(message.to)) first.set(message.to, message.receivedAt);
  return first;
}

async function smsStatusCounts(db: pg.Client) {
  const { rows } = await db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM sms_messages GROUP BY 1 ORDER BY 1');
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** The budgets as the worker reads them, and its counts at the end of the run. */
async function budgetsAtTheEnd(product: Product, phase: string) {
  const limits = smsBudgetLimits(z.object(smsBudgetEnv).parse(product.env));
  const knex = createDb(product.databaseUrl, { applicationName: `bench-abuse-${phase}`, poolMax: 2 });
  onCleanUp(() => knex.destroy());
  return { limits, overview: await smsBudgetOverview(knex, { limits, now: () => new Date() }) };
}

function printBudgets(budgets: Awaited<ReturnType<typeof budgetsAtTheEnd>>['overview']['budgets'], only?: (scope: string) => boolean) {
  console.log('  budgets at the end (count in the window / budget):');
  for (const entry of budgets) {
    if (only && !only(entry.scope)) continue;
    const name = `${entry.untrusted ? 'untrusted share of ' : ''}${entry.scope}${entry.key ? ` ${entry.key}` : ''} per ${entry.window}`;
    console.log(`    ${name.padEnd(40)}${String(entry.count).padStart(6)} / ${entry.limit}${entry.tripped ? '  tripped' : ''}`);
  }
}

/** The attack of issue 12: a few number blocks, one IPv6 /64, a cross-site page, a botnet's form posts. */
async function concentratedPhase(product: Product) {
  const { apiUrl, twilio } = product;
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
  log(`load done; waiting up to ${drainSeconds} s for the honest visitors' SMS`);
  const drainDeadline = Date.now() + drainSeconds * 1000;
  while (Date.now() < drainDeadline && !honest.every((row) => firstSmsAt(twilio).has(row.telefono))) await sleep(250);
  const endedAt = Date.now();
  agent.destroy();

  const db = new pg.Client({ connectionString: product.databaseUrl });
  await db.connect();
  onCleanUp(() => db.end());
  const smsStatuses = await smsStatusCounts(db);
  const leadsStored = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ebook_requests')).rows[0]!.n;

  const first = firstSmsAt(twilio);
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
  const { limits, overview } = await budgetsAtTheEnd(product, 'concentrated');
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

  console.log(`\nAbuse benchmark, concentrated attack · ${loadSeconds} s of load, run ${round(runSeconds, 1)} s · default configuration`);
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
  printBudgets(overview.budgets, (scope) => scope !== 'network' && scope !== 'address');

  return {
    pass,
    results: {
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
    },
  };
}

/* -------------------------- distributed attack -------------------------- */

/**
 * The attacker's addresses: `addressesPerNetwork` in each of `ipv4Networks` IPv4 /24s and
 * `ipv6Networks` IPv6 /48s (each IPv6 address in a /64 of its own). Only ever written in
 * X-Forwarded-For: every request goes to 127.0.0.1.
 */
function attackerAddresses() {
  const { ipv4Networks, ipv6Networks, addressesPerNetwork } = DISTRIBUTED;
  const addresses: string[] = [];
  for (let network = 0; network < ipv4Networks; network += 1) {
    for (let host = 0; host < addressesPerNetwork; host += 1) addresses.push(`${31 + network}.${(network * 37) % 256}.${(network * 91) % 256}.${10 + host}`);
  }
  for (let network = 0; network < ipv6Networks; network += 1) {
    for (let subnet = 0; subnet < addressesPerNetwork; subnet += 1) {
      addresses.push(`2001:db8:${(0x100 + network).toString(16)}:${(subnet + 1).toString(16)}::${randomBytes(2).toString('hex')}`);
    }
  }
  return addresses;
}

/** 320 Italian blocks (each mobile prefix and the next digit) and 80 Swiss ones. */
function junkBlocks() {
  const italian = IT_PREFIXES.flatMap((prefix) => Array.from({ length: 10 }, (_, digit) => `39${prefix}${digit}`));
  const swiss = CH_PREFIXES.flatMap((prefix) => Array.from({ length: 16 }, (_, index) => `41${prefix}${String(index * 6).padStart(2, '0')}`));
  return [...italian, ...swiss].slice(0, DISTRIBUTED.numberBlocks);
}

/** A number of `block`: +39 and 10 national digits, +41 and 9. */
const phoneIn = (block: string) => `+${block}${digits(block.startsWith('39') ? 6 : 5)}`;

const browserHeaders = (apiUrl: string, ip: string) => ({
  'content-type': 'application/json',
  origin: apiUrl,
  'sec-fetch-site': 'same-origin',
  'x-forwarded-for': ip,
});

interface FormOutcome {
  telefono: string;
  status: number | null;
  solved: boolean;
  answeredAt: number;
}

/** The form as the site's script sends it: posted, and when a proof-of-work is demanded (428), solved and posted again. */
async function submitForm(apiUrl: string, agent: http.Agent, ip: string, telefono: string, index: number): Promise<FormOutcome> {
  const url = new URL('/api/ebook-request', apiUrl);
  const body = { ...fields(telefono, index), gdprConsent: true };
  const post = (payload: object) => {
    const text = JSON.stringify(payload);
    return call(agent, url, 'POST', { ...browserHeaders(apiUrl, ip), 'content-length': String(Buffer.byteLength(text)) }, text);
  };
  const first = await post(body);
  if (first.status !== 428) return { telefono, status: first.status, solved: false, answeredAt: Date.now() };
  const altcha = await solvedAltcha(agent, apiUrl, ip);
  const second = await post({ ...body, altcha });
  return { telefono, status: second.status, solved: true, answeredAt: Date.now() };
}

/** An honest visitor: the page (its view reaches the analytics stream), some reading, then the form. */
async function honestVisit(apiUrl: string, agent: http.Agent, index: number): Promise<FormOutcome> {
  const ip = `${101 + (index % 90)}.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`;
  const view = JSON.stringify({ events: [{ type: 'page-view', sessionId: randomBytes(16).toString('base64url'), path: '/' }] });
  await call(agent, new URL('/api/analytics/batch', apiUrl), 'POST', { ...browserHeaders(apiUrl, ip), 'content-length': String(Buffer.byteLength(view)) }, view);
  await sleep(DISTRIBUTED.honestReadingSeconds * 1000);
  return submitForm(apiUrl, agent, ip, honestPhone(), index);
}

/** `perSecond` starts of `visit` for the load, each at its due moment; every outcome. */
async function schedule(perSecond: number, loadSeconds: number, visit: (index: number) => Promise<FormOutcome>) {
  const total = Math.round(loadSeconds * perSecond);
  const started = Date.now();
  const outcomes: Promise<FormOutcome>[] = [];
  for (let index = 0; index < total; index += 1) {
    const wait = started + (index * 1000) / perSecond - Date.now();
    if (wait > 0) await sleep(wait);
    outcomes.push(visit(index));
  }
  return Promise.all(outcomes);
}

async function distributedPhase(product: Product) {
  const { apiUrl, twilio } = product;
  const { loadSeconds, attackerPerSecond, honestPerSecond, drainSeconds } = DISTRIBUTED;
  const addresses = attackerAddresses();
  const blocks = junkBlocks();
  const limits = smsBudgetLimits(z.object(smsBudgetEnv).parse(product.env));
  const attackFactor = (attackerPerSecond * 3600) / limits.global.hour;
  log(
    `distributed attack for ${loadSeconds} s: ${attackerPerSecond} junk leads/s (${number(attackerPerSecond * 3600)}/h, ` +
      `${round(attackFactor, 1)}× the global budget of ${limits.global.hour}/h) from ${addresses.length} addresses in ` +
      `${DISTRIBUTED.ipv4Networks} IPv4 /24s and ${DISTRIBUTED.ipv6Networks} IPv6 /48s, numbers in ${blocks.length} blocks, ` +
      `challenges solved; honest visitors ${honestPerSecond}/s (page view, ${DISTRIBUTED.honestReadingSeconds} s, form)`,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 500 });
  const loadStartedAt = Date.now();
  const [junk, honestOutcomes] = await Promise.race([
    Promise.all([
      schedule(attackerPerSecond, loadSeconds, (index) =>
        submitForm(apiUrl, agent, addresses[index % addresses.length]!, phoneIn(blocks[index % blocks.length]!), index),
      ),
      schedule(honestPerSecond, loadSeconds, (index) => honestVisit(apiUrl, agent, index)),
    ]),
    serviceCrashed,
  ]);
  const loadEndedAt = Date.now();

  const honest = honestOutcomes.filter((row) => row.status === 201);
  log(`load done; waiting up to ${drainSeconds} s for the honest visitors' SMS`);
  const drainDeadline = Date.now() + drainSeconds * 1000;
  while (Date.now() < drainDeadline && !honest.every((row) => firstSmsAt(twilio).has(row.telefono))) await sleep(250);
  const endedAt = Date.now();
  agent.destroy();

  const db = new pg.Client({ connectionString: product.databaseUrl });
  await db.connect();
  onCleanUp(() => db.end());
  const smsStatuses = await smsStatusCounts(db);
  const trust = (
    await db.query<{ trusted: boolean; n: number }>(
      `SELECT s.trusted, count(*)::int AS n FROM sms_messages s JOIN ebook_requests l ON l.id = s.lead_id
       WHERE l.telefono = ANY($1::text[]) GROUP BY 1`,
      [honest.map((row) => row.telefono)],
    )
  ).rows;
  // From the first junk SMS held on, the untrusted share was full: what the bar is about.
  const firstHeld = (
    await db.query<{ at: Date | null }>('SELECT min(occurred_at) AS at FROM sms_events WHERE status = $1', [SMS_TRANSITIONS.hold.to])
  ).rows[0]?.at;

  const first = firstSmsAt(twilio);
  const waits = (rows: FormOutcome[]) =>
    // An SMS not there at the end waited at least until the end: counted so, the p99 cannot hide it.
    latency(rows.map((row) => (first.get(row.telefono) ?? endedAt) - row.answeredAt));
  const honestTimes = waits(honest);
  const whileHeld = firstHeld ? waits(honest.filter((row) => row.answeredAt >= firstHeld.getTime())) : latency([]);
  const honestMissing = honest.filter((row) => !first.has(row.telefono)).length;
  const attackerPhones = new Set(junk.map((row) => row.telefono));
  const attackerSms = twilio.messages.filter((message) => attackerPhones.has(message.to)).length;
  const junkStored = junk.filter((row) => row.status === 201).length;
  // The pace the bar is about: junk leads the product took, per hour of the load.
  const storedPerHour = (junkStored / ((loadEndedAt - loadStartedAt) / 1000)) * 3600;
  const storedFactor = storedPerHour / limits.global.hour;
  const untrustedShare = untrustedLimit(limits.global.hour, limits);
  const runSeconds = (endedAt - loadStartedAt) / 1000;
  const { overview } = await budgetsAtTheEnd(product, 'distributed');
  const pass = {
    attackAtTheRequiredPace: storedFactor >= DISTRIBUTED.minimumAttackFactor,
    honestSmsP99: honestTimes.p99 !== null && honestTimes.p99 <= BARS.honestSmsP99Ms,
    attackerSmsWithinBudget: attackerSms <= limits.global.hour,
  };
  const answers = { attacker: statusCounts(junk), honest: statusCounts(honestOutcomes) };

  console.log(
    `\nAbuse benchmark, distributed attack · ${loadSeconds} s of load, run ${round(runSeconds, 1)} s · default configuration (budgets of .env.example)`,
  );
  console.log(
    `  attacker: ${junk.length} junk forms sent (${number(attackerPerSecond * 3600)}/h), ${junkStored} stored: ${number(storedPerHour)}/h, ` +
      `${round(storedFactor, 1)}× the global hourly budget, bar ≥ ${DISTRIBUTED.minimumAttackFactor}×  ${verdict(pass.attackAtTheRequiredPace)}; from ${addresses.length} addresses in ` +
      `${DISTRIBUTED.ipv4Networks + DISTRIBUTED.ipv6Networks} networks, numbers in ${new Set(junk.map((row) => blockOf(row.telefono))).size} blocks, ` +
      `${junk.filter((row) => row.solved).length} proofs-of-work solved · answers ${JSON.stringify(answers.attacker)}`,
  );
  console.log(
    `  honest visitors: ${honestOutcomes.length} (page view, then the form), ${honestOutcomes.filter((row) => row.solved).length} solved a proof-of-work · ` +
      `answers ${JSON.stringify(answers.honest)} · their SMS trusted ${JSON.stringify(Object.fromEntries(trust.map((row) => [String(row.trusted), row.n])))}`,
  );
  console.log(
    `  SMS to attacker numbers ${attackerSms} · budget ${limits.global.hour}/h in total, of which untrusted SMS may use ${untrustedShare} ` +
      `(SMS_BUDGET_TRUSTED_SHARE_PERCENT ${limits.trustedSharePercent})  ${verdict(pass.attackerSmsWithinBudget)}`,
  );
  console.log(`  SMS statuses ${JSON.stringify(smsStatuses)} · first junk SMS held ${firstHeld ? `${round((firstHeld.getTime() - loadStartedAt) / 1000)} s into the load` : 'never'}`);
  console.log(
    `  honest SMS, 201 → provider: p50 ${number(honestTimes.p50)} ms · p99 ${number(honestTimes.p99)} ms · max ${number(honestTimes.max)} ms ` +
      `(${honest.length} honest leads, ${honestMissing} without SMS at the end) · bar p99 ≤ ${BARS.honestSmsP99Ms / 1000} s  ${verdict(pass.honestSmsP99)}`,
  );
  console.log(
    `    of them sent while junk SMS were being held: ${whileHeld.count}, p50 ${number(whileHeld.p50)} ms · p99 ${number(whileHeld.p99)} ms`,
  );
  printBudgets(overview.budgets, (scope) => scope === 'global' || scope === 'country');

  return {
    pass,
    results: {
      settings: DISTRIBUTED,
      addresses: addresses.length,
      networks: DISTRIBUTED.ipv4Networks + DISTRIBUTED.ipv6Networks,
      numberBlocks: blocks.length,
      attackFactorOffered: round(attackFactor, 2),
      attackFactorStored: round(storedFactor, 2),
      runSeconds: round(runSeconds, 1),
      loadSeconds: round((loadEndedAt - loadStartedAt) / 1000, 1),
      answers,
      attackerSolved: junk.filter((row) => row.solved).length,
      honestSolved: honestOutcomes.filter((row) => row.solved).length,
      honestTrusted: Object.fromEntries(trust.map((row) => [String(row.trusted), row.n])),
      smsStatuses,
      firstHeldSecondsIntoLoad: firstHeld ? round((firstHeld.getTime() - loadStartedAt) / 1000) : null,
      sms: { sent: twilio.messages.length, toAttackerNumbers: attackerSms, junkLeadsStored: junkStored },
      budgets: { limits, untrustedShareOfGlobalPerHour: untrustedShare, atTheEnd: overview.budgets.filter((entry) => entry.scope === 'global' || entry.scope === 'country') },
      honestTimeToSmsMs: { ...honestTimes, withoutSmsAtTheEnd: honestMissing, whileJunkWasHeld: whileHeld },
    },
  };
}

async function main() {
  const startedAt = new Date();
  const concentratedProduct = await startProduct(BENCH_DATABASE);
  const concentrated = await concentratedPhase(concentratedProduct);
  await concentratedProduct.stop();
  const distributedProduct = await startProduct(`${BENCH_DATABASE}_distributed`);
  const distributed = await distributedPhase(distributedProduct);

  const file = writeResults('abuse', startedAt, {
    startedAt: startedAt.toISOString(),
    machine: machineFacts(),
    ...concentrated.results,
    bars: BARS,
    pass: concentrated.pass,
    distributed: { ...distributed.results, pass: distributed.pass },
  });
  log(`results written to ${file}`);
  if (![...Object.values(concentrated.pass), ...Object.values(distributed.pass)].every(Boolean)) process.exitCode = 1;
}

await runBenchmark('abuse', SETTINGS.runLimitMinutes, main);
