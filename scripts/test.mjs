// @ts-check
/**
 * `npm test`: installs what is missing, finds PostgreSQL and Redis for the tests
 * (containers when a Docker engine answers and no TEST_* URL is set; otherwise
 * TEST_DATABASE_URL / TEST_REDIS_URL or the local servers, started if needed), Chromium
 * and PgBouncer (Debian's packages), then runs type-check, lint, the web build and the
 * whole vitest suite (unit, integration, system, browser). The last line is vitest's summary.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureChromium, ensureDebianPackage, PGBOUNCER } from './lib/debian-packages.mjs';
import { ensureDependencies } from './lib/dependencies.mjs';
import { runOnLts } from './lib/node-runtime.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';
import { prepareTestServices } from './lib/test-services.mjs';

/** @param {string} title @param {string} bin @param {string[]} args @param {string} [cwd] */
function step(title, bin, args, cwd = ROOT) {
  log('test', title);
  const started = Date.now();
  const result = spawnSync(join(ROOT, 'node_modules', '.bin', bin), args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${title} failed`);
  // Each step's time, so a slow CI run shows where its minutes went.
  log('test', `${title}: ${Math.round((Date.now() - started) / 1000)} s`);
}

await runOnLts(import.meta.url);

try {
  ensureDependencies();
  await prepareTestServices();
  ensureChromium('test', 'the browser tests');
  ensureDebianPackage({ binary: PGBOUNCER, name: 'pgbouncer', scope: 'test', purpose: 'the connection-pooler test' });
  step('route types of the web app', 'react-router', ['typegen'], join(ROOT, 'web'));
  step('type-check', 'tsc', ['-p', 'tsconfig.json']);
  step('type-check (web)', 'tsc', ['-p', 'web/tsconfig.json']);
  step('lint (with import boundaries)', 'eslint', ['--max-warnings', '0', '.']);
  // The site the browser tests load names a provider, as a deployment's must (d.lgs.
  // 70/2003): example values where the environment sets none; the tests read them back.
  process.env.PRIVACY_CONTROLLER_NAME ||= 'Esempio Editore S.r.l.';
  process.env.PRIVACY_CONTROLLER_ADDRESS ||= 'Via Roma 1, 20100 Milano';
  process.env.PRIVACY_CONTROLLER_VAT ||= 'IT01234567890';
  process.env.PRIVACY_CONTROLLER_REA ||= 'MI-1234567';
  log('test', 'build the web site (for the browser tests)');
  // The same production build as npm start's, whatever NODE_ENV this shell has.
  const { buildWeb } = await import('./build.mjs');
  const buildStarted = Date.now();
  buildWeb();
  log('test', `web build: ${Math.round((Date.now() - buildStarted) / 1000)} s`);
  log('test', 'unit, integration, system and browser tests');
  const vitest = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run'], { cwd: ROOT, stdio: 'inherit' });
  process.exit(vitest.status ?? 1);
} catch (error) {
  exitWith(error);
}
