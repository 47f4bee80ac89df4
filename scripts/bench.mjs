// @ts-check
/**
 * `npm run bench [name]`: installs what is missing, makes sure PostgreSQL and Redis
 * answer, bundles the API and the worker, then runs every benchmark in turn (or only
 * `name`). Each benchmark prints its table and writes bench/results/<name>-*.json.
 */
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './lib/debian-packages.mjs';
import { ensureDependencies } from './lib/dependencies.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';

/** One line per benchmark: its name on the command line and its script. */
const BENCHMARKS = {
  leads: 'bench/leads.ts',
  web: 'bench/web.ts',
  analytics: 'bench/analytics.ts',
  outage: 'bench/outage.ts',
  'admin-login': 'bench/admin-login.ts',
  abuse: 'bench/abuse.ts',
};

/** @param {string | undefined} only */
function selected(only) {
  const all = Object.entries(BENCHMARKS);
  const chosen = only === undefined ? all : all.filter(([name]) => name === only);
  if (chosen.length === 0) {
    throw new Error(`unknown benchmark "${only}" (available: ${Object.keys(BENCHMARKS).join(', ')})`);
  }
  return chosen;
}

/** @param {string[]} names */
async function prepare(names) {
  ensureDependencies();
  // These import packages that the step above may just have installed.
  const { loadEnvFile } = await import('./lib/env-file.mjs');
  const { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } = await import('./lib/defaults.mjs');
  const { ensurePostgres, ensureRedis } = await import('./lib/services.mjs');
  const { buildServer, buildWeb } = await import('./build.mjs');

  // Only to learn where PostgreSQL and Redis are; each benchmark passes the processes it
  // starts an environment of its own.
  loadEnvFile({ create: false });
  await ensurePostgres(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  await ensureRedis(process.env.REDIS_URL || DEFAULT_REDIS_URL);
  await buildServer();
  // The web benchmark measures the build npm start builds, in Debian's Chromium.
  if (names.includes('web')) {
    ensureChromium('bench', 'the web benchmark');
    buildWeb();
  }
}

try {
  const benchmarks = selected(process.argv[2]);
  await prepare(benchmarks.map(([name]) => name));
  for (const [name, file] of benchmarks) {
    log('bench', `running ${name} (${file})`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`benchmark ${name} failed (see above)`);
  }
} catch (error) {
  exitWith(error);
}
