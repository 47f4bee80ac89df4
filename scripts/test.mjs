// @ts-check
/**
 * `npm test`: installs what is missing, finds PostgreSQL and Redis for the tests
 * (containers when a Docker engine answers and no TEST_* URL is set; otherwise
 * TEST_DATABASE_URL / TEST_REDIS_URL or the local servers, started if needed) and Chromium,
 * then runs type-check, lint, the web build and the whole vitest suite (unit, integration,
 * system, browser). The last line is vitest's summary.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureChromium } from './lib/chromium.mjs';
import { ensureDependencies } from './lib/dependencies.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';

const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/guida_test';
const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** @param {string} title @param {string} bin @param {string[]} args @param {string} [cwd] */
function step(title, bin, args, cwd = ROOT) {
  log('test', title);
  const result = spawnSync(join(ROOT, 'node_modules', '.bin', bin), args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${title} failed`);
}

async function prepareServices() {
  const { ensurePostgres, ensureRedis } = await import('./lib/services.mjs');
  const explicit = process.env.TEST_DATABASE_URL || process.env.TEST_REDIS_URL;
  const docker = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  if (!explicit && docker) {
    log('test', 'Docker engine found: the tests start their own PostgreSQL and Redis containers');
    process.env.GUIDA_TEST_CONTAINERS = '1';
    return;
  }
  process.env.TEST_DATABASE_URL ||= DEFAULT_TEST_DATABASE_URL;
  process.env.TEST_REDIS_URL ||= DEFAULT_TEST_REDIS_URL;
  await ensurePostgres(process.env.TEST_DATABASE_URL);
  await ensureRedis(process.env.TEST_REDIS_URL);
}

try {
  ensureDependencies();
  await prepareServices();
  ensureChromium('test', 'the browser tests');
  step('route types of the web app', 'react-router', ['typegen'], join(ROOT, 'web'));
  step('type-check', 'tsc', ['-p', 'tsconfig.json']);
  step('type-check (web)', 'tsc', ['-p', 'web/tsconfig.json']);
  step('lint (with import boundaries)', 'eslint', ['--max-warnings', '0', '.']);
  log('test', 'build the web site (for the browser tests)');
  // The same production build as npm start's, whatever NODE_ENV this shell has.
  const { buildWeb } = await import('./build.mjs');
  buildWeb();
  log('test', 'unit, integration, system and browser tests');
  const vitest = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run'], { cwd: ROOT, stdio: 'inherit' });
  process.exit(vitest.status ?? 1);
} catch (error) {
  exitWith(error);
}
