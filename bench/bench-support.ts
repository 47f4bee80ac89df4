/**
 * What the benchmarks that run the bundled API and worker share: a run with a time limit
 * and clean-up steps, a database of their own, the processes under test, CPU use per
 * process from /proc, and the report helpers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseEnv } from 'node:util';
import pg from 'pg';
import type { Redis } from '@guida/shared/server/redis';
import { ROOT } from '../scripts/lib/output.mjs';

/* --------------------------- run and clean-up -------------------------- */

const cleanups: (() => Promise<unknown> | unknown)[] = [];

/** Registers a clean-up step; they run once each, last registered first. */
export function onCleanUp(step: () => Promise<unknown> | unknown) {
  cleanups.push(step);
}

/** One failing step does not stop the rest. */
async function cleanUp(name: string) {
  while (cleanups.length > 0) {
    const step = cleanups.pop()!;
    try {
      await step();
    } catch (error) {
      console.error(`[bench:${name}] clean-up step failed: ${(error as Error).message}`);
    }
  }
}

export const benchLog = (name: string) => (message: string) => console.log(`[bench:${name}] ${message}`);

/**
 * Runs `main` with a time limit; on success, failure, the limit or Ctrl-C the clean-up
 * steps run, then the process exits.
 */
export async function runBenchmark(name: string, runLimitMinutes: number, main: () => Promise<void>) {
  const abort = (reason: string) => {
    console.error(`\n✖ ${reason}; stopping`);
    void cleanUp(name).finally(() => process.exit(1));
  };
  const runLimit = setTimeout(
    () => abort(`the benchmark did not finish within ${runLimitMinutes} minutes`),
    runLimitMinutes * 60_000,
  );
  process.once('SIGINT', () => abort('interrupted'));
  try {
    await main();
  } catch (error) {
    console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await cleanUp(name);
    clearTimeout(runLimit);
  }
  // Keep-alive sockets of the load generators may hold the event loop open.
  process.exit();
}

/* --------------------------- local services ---------------------------- */

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function localUrl(url: string, variable: string) {
  if (!LOOPBACK.has(new URL(url).hostname)) {
    throw new Error(`${variable} must point at this machine for a benchmark (it names ${new URL(url).host})`);
  }
  return url;
}

export function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Drops and creates `database`, migrates it with the bundled migrator; returns its URL. */
export async function recreateDatabase(serverUrl: string, database: string) {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
  const databaseUrl = withDatabase(serverUrl, database);
  const migrated = spawnSync(process.execPath, ['api/dist/migrate.js', 'latest'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (migrated.status !== 0) throw new Error(`migrations failed:\n${migrated.stderr}${migrated.stdout}`);
  return databaseUrl;
}

export async function deleteKeys(redis: Redis, prefix: string) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * The configuration `npm start` runs with: .env.example, which it copies to .env on the
 * first run (an empty value means the default).
 */
export function npmStartConfiguration(): Record<string, string> {
  const values = parseEnv(readFileSync(join(ROOT, '.env.example'), 'utf8'));
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
}

/* ------------------------ API and worker processes --------------------- */

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  logLines: number;
  tail: string[];
  /** Set before we stop it: its exit is then no crash. */
  stopping: boolean;
}

const services: ServiceProcess[] = [];
let reportCrash: (error: Error) => void = () => undefined;
/** Rejects when the API or the worker exits while the benchmark still needs it. */
export const serviceCrashed = new Promise<never>((_, reject) => {
  reportCrash = reject;
});
serviceCrashed.catch(() => undefined);

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * SMS budgets (decision 025) out of the way, for benchmarks that measure throughput with
 * generated numbers from one number block: there the block budget would hold almost all.
 */
export const SMS_BUDGETS_LIFTED = Object.fromEntries(
  ['GLOBAL', 'IT', 'CH', 'BLOCK'].flatMap((scope) =>
    ['HOUR', 'DAY'].map((window) => [`SMS_BUDGET_${scope}_PER_${window}`, '10000000']),
  ),
) as Record<string, string>;

/**
 * The environment of the api and worker under a benchmark: its `settings` (what it reports)
 * and nothing from the caller's environment (a CRM webhook, an SMTP server, another
 * provider), with a fresh session secret and, for SMS through the fake Twilio, its
 * credentials (kept out of the reported settings).
 */
export function isolatedEnv(settings: Record<string, string>, twilio?: { accountSid: string; authToken: string }) {
  return {
    ...settings,
    PATH: process.env.PATH ?? '',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ...(twilio ? { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken } : {}),
  };
}

/** `nodeOptions` go before the entry (options NODE_OPTIONS refuses, such as --cpu-prof). */
export function startService(name: string, entry: string, env: Record<string, string>, nodeOptions: string[] = []) {
  const child = spawn(process.execPath, ['--enable-source-maps', ...nodeOptions, entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const service: ServiceProcess = { name, child, logLines: 0, tail: [], stopping: false };
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8').on('data', (text: string) => {
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      service.logLines += lines.length;
      service.tail.push(...lines);
      service.tail.splice(0, Math.max(0, service.tail.length - 20));
    });
  }
  child.on('exit', (code, signal) => {
    if (service.stopping) return;
    reportCrash(
      new Error(
        `${name} exited during the benchmark (${signal ?? `exit code ${code}`}); its last output:\n` +
          service.tail.join('\n'),
      ),
    );
  });
  services.push(service);
  return service;
}

/** SIGTERM, then SIGKILL if it has not exited within 15 s. */
export async function stopService(service: ServiceProcess) {
  service.stopping = true;
  const { child } = service;
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!stopped) child.kill('SIGKILL');
}

export async function stopServices() {
  for (const service of services) service.stopping = true;
  await Promise.all(services.map(stopService));
}

export async function waitForReady(apiUrl: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${apiUrl}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('the API did not answer /readyz with 200 within 30 s');
}

/* ------------------------------ CPU usage ------------------------------ */

type CpuGroup = 'api' | 'worker' | 'postgres' | 'redis';

interface CpuSnapshot {
  at: number;
  bench: NodeJS.CpuUsage;
  groups: Record<CpuGroup, Map<number, number>>;
  machine: { busy: number; total: number };
}

export interface CpuCores {
  api: number;
  worker: number;
  postgres: number;
  redis: number;
  /** This process: the load generator (and whatever the benchmark runs in it). */
  bench: number;
  /** Everything else running on the machine meanwhile. */
  other: number;
  machine: number;
}

/** USER_HZ, the unit of /proc/stat and /proc/<pid>/stat: 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime, in seconds. */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Processes whose command line matches: /proc/<pid>/cmdline holds a backend's database. */
function pidsMatching(pattern: RegExp): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (pattern.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '))) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** `pids` and every process they started (an API running several processes under node:cluster). */
function withDescendants(pids: number[]): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found = new Set(pids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!found.has(pid) && found.has(parent)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function groupSeconds(pids: number[]) {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    const value = processCpuSeconds(pid);
    if (value !== null) seconds.set(pid, value);
  }
  return seconds;
}

function machineTicks() {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/**
 * CPU use of the processes under test while `run` runs. PostgreSQL counts the backends
 * of `database` and the writers they share; other databases on the same server (a test
 * run, say) count as "other".
 */
export function cpuMeter(database: string, redisUrl: string) {
  const postgresProcesses = new RegExp(`^postgres: .*( ${database} |walwriter|background writer|checkpointer)`);
  const redisProcess = new RegExp(`^redis-server .*:${new URL(redisUrl).port || '6379'}\\b`);
  const pidsOf = (name: string) =>
    withDescendants(services.filter((s) => s.name === name).map((s) => s.child.pid ?? -1));

  /** Null where /proc does not exist (not Linux): the figures are then left out. */
  const snapshot = (): CpuSnapshot | null => {
    try {
      return {
        at: performance.now(),
        bench: process.cpuUsage(),
        groups: {
          api: groupSeconds(pidsOf('api')),
          worker: groupSeconds(pidsOf('worker')),
          postgres: groupSeconds(pidsMatching(postgresProcesses)),
          redis: groupSeconds(pidsMatching(redisProcess)),
        },
        machine: machineTicks(),
      };
    } catch {
      return null;
    }
  };

  const cores = (start: CpuSnapshot | null, end: CpuSnapshot | null): CpuCores | null => {
    if (!start || !end) return null;
    const wallSeconds = (end.at - start.at) / 1000;
    const perSecond = (seconds: number) => round(seconds / wallSeconds, 2);
    // A process started meanwhile counts from zero; one that ended is left out.
    const delta = (group: CpuGroup) => {
      let seconds = 0;
      for (const [pid, value] of end.groups[group]) seconds += value - (start.groups[group].get(pid) ?? 0);
      return seconds;
    };
    const bench = process.cpuUsage(start.bench);
    const ours = {
      api: delta('api'),
      worker: delta('worker'),
      postgres: delta('postgres'),
      redis: delta('redis'),
      bench: (bench.user + bench.system) / 1e6,
    };
    const machine = (end.machine.busy - start.machine.busy) / CLOCK_TICKS_PER_SECOND;
    const sum = Object.values(ours).reduce((total, value) => total + value, 0);
    return {
      api: perSecond(ours.api),
      worker: perSecond(ours.worker),
      postgres: perSecond(ours.postgres),
      redis: perSecond(ours.redis),
      bench: perSecond(ours.bench),
      other: perSecond(Math.max(0, machine - sum)),
      machine: perSecond(machine),
    };
  };

  return async function withCpu<T>(run: () => Promise<T>): Promise<T & { cpuCores: CpuCores | null }> {
    const start = snapshot();
    const result = await run();
    return { ...result, cpuCores: cores(start, snapshot()) };
  };
}

/* ------------------------------- report -------------------------------- */

export const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? null;
}

export const number = (value: number | null, digits = 0) =>
  value === null ? 'n/a' : value.toLocaleString('en-US', { maximumFractionDigits: digits });

export const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

/** `bench` says what runs in this process besides the load generator. */
export function printCpu(rows: [string, CpuCores | null][], bench: string) {
  if (rows.every(([, cores]) => cores === null)) return;
  const columns = ['api', 'worker', 'postgres', 'redis', 'bench', 'other', 'machine'] as const;
  const width = Math.max(14, ...rows.map(([name]) => name.length));
  console.log(`\nCPU, in cores busy (the machine has ${os.cpus().length}; "bench" = ${bench})`);
  console.log(`  ${'phase'.padEnd(width)}${columns.map((c) => c.padStart(10)).join('')}`);
  for (const [name, cores] of rows) {
    if (!cores) continue;
    console.log(`  ${name.padEnd(width)}${columns.map((c) => cores[c].toFixed(2).padStart(10)).join('')}`);
  }
}

export function machineFacts() {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    totalMemoryBytes: os.totalmem(),
  };
}

/** Writes bench/results/<name>-<stamp>.json and <name>-latest.json; returns the first path. */
export function writeResults(name: string, startedAt: Date, results: unknown) {
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  // Colons left out of the file name: they are not allowed in Windows paths.
  const stamp = `${startedAt.toISOString().slice(0, 19).replace(/:/g, '-')}Z`;
  const file = join('bench', 'results', `${name}-${stamp}.json`);
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(join(ROOT, file), json);
  writeFileSync(join(resultsDir, `${name}-latest.json`), json);
  return file;
}
