/**
 * Admin login benchmark (`npm run bench:admin-login`). The bundled API runs as one real
 * process on a database of its own; an admin is created with the bundled admin:create.
 * Measures how long `/healthz` takes to answer, one request after the other, first with
 * nothing else going on, then while 8 logins (the right password, each from an address
 * of its own) are in flight without pause. Password hashing must not hold up the
 * process's other requests; prints a table and writes bench/results/admin-login-*.json.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../scripts/lib/defaults.mjs';
import { ROOT } from '../scripts/lib/output.mjs';
import { freePort } from '@guida/testing/free-port';
import {
  benchLog,
  isolatedEnv,
  localUrl,
  machineFacts,
  number,
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
  loginsInFlight: 8,
  phaseSeconds: 10,
  runLimitMinutes: 4,
};

/** /healthz p99 while the logins run: a blocked event loop shows as tens of milliseconds. */
const BARS = { healthzP99UnderLoginsMs: 20 };

const BENCH_DATABASE = 'guida_bench_login';
const USERNAME = 'bench-admin';
const PASSWORD = 'Bench!Cavallo-Batteria-42';
const log = benchLog('admin-login');

/** Sequential /healthz requests for `seconds`: their latencies in ms, ascending. */
async function healthzLatencies(apiUrl: string, seconds: number) {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await Promise.race([fetch(`${apiUrl}/healthz`), serviceCrashed]);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

const summary = (sorted: number[]) => ({
  requests: sorted.length,
  p50Ms: round(percentile(sorted, 50) ?? 0, 2),
  p99Ms: round(percentile(sorted, 99) ?? 0, 2),
  maxMs: round(sorted.at(-1) ?? 0, 2),
});

/** `count` loops, each posting a login as soon as the previous one answered. */
function loginsInFlight(apiUrl: string, count: number) {
  const statuses = new Map<number, number>();
  let running = true;
  let address = 0;
  const loop = async () => {
    while (running) {
      address += 1;
      // A new client address each time: the per-address limit is not what is measured.
      const response = await fetch(`${apiUrl}/api/admin/login`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Forwarded-For': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
        },
        body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  const loops = Array.from({ length: count }, loop);
  return async () => {
    running = false;
    await Promise.all(loops);
    return Object.fromEntries(statuses);
  };
}

await runBenchmark('admin-login', SETTINGS.runLimitMinutes, async () => {
  const databaseUrl = await recreateDatabase(
    localUrl(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, 'DATABASE_URL'),
    BENCH_DATABASE,
  );
  const created = spawnSync(process.execPath, ['api/dist/create-admin.js', '--username', USERNAME], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, ADMIN_PASSWORD: PASSWORD },
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`admin:create failed:\n${created.stderr}${created.stdout}`);

  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const settings = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    WEB_CONCURRENCY: '1',
    PUBLIC_BASE_URL: apiUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: localUrl(process.env.REDIS_URL || DEFAULT_REDIS_URL, 'REDIS_URL'),
    REDIS_KEY_PREFIX: `bench-login-${port}`,
  };
  startService('api', 'api/dist/server.js', isolatedEnv(settings));
  try {
    await waitForReady(apiUrl);
    log('measuring /healthz alone');
    const idle = summary(await healthzLatencies(apiUrl, SETTINGS.phaseSeconds));
    log(`measuring /healthz with ${SETTINGS.loginsInFlight} logins in flight`);
    const stopLogins = loginsInFlight(apiUrl, SETTINGS.loginsInFlight);
    const underLogins = summary(await healthzLatencies(apiUrl, SETTINGS.phaseSeconds));
    const loginAnswers = await stopLogins();

    const pass = underLogins.p99Ms <= BARS.healthzP99UnderLoginsMs;
    console.log(`\n/healthz, one request after the other (${SETTINGS.phaseSeconds} s each)`);
    console.log(`  ${'phase'.padEnd(24)}${['requests', 'p50 ms', 'p99 ms', 'max ms'].map((c) => c.padStart(10)).join('')}`);
    for (const [name, row] of [
      ['alone', idle],
      [`${SETTINGS.loginsInFlight} logins in flight`, underLogins],
    ] as const) {
      console.log(
        `  ${name.padEnd(24)}${[number(row.requests), number(row.p50Ms, 2), number(row.p99Ms, 2), number(row.maxMs, 2)]
          .map((c) => c.padStart(10))
          .join('')}`,
      );
    }
    console.log(`  login answers meanwhile: ${JSON.stringify(loginAnswers)}`);
    console.log(`  bar: p99 under logins ≤ ${BARS.healthzP99UnderLoginsMs} ms → ${verdict(pass)}`);
    const file = writeResults('admin-login', new Date(), {
      settings: SETTINGS,
      bars: BARS,
      machine: machineFacts(),
      healthz: { alone: idle, underLogins },
      loginAnswers,
      pass,
    });
    log(`results written to ${file}`);
  } finally {
    await stopServices();
  }
});
