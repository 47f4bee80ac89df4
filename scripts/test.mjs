// @ts-check
/**
 * `npm test`: installs what is missing, finds PostgreSQL and Redis for the tests
 * (containers when a Docker engine answers and no TEST_* URL is set; otherwise
 * TEST_DATABASE_URL / TEST_REDIS_URL or the local servers, started if needed), Chromium
 * and PgBouncer (Debian's packages), then runs type-check and lint side by side, the web
 * build, and the whole vitest suite (unit, integration, system, browser). The last line is
 * vitest's summary.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ensureChromium, ensureDebianPackage, PGBOUNCER } from './lib/debian-packages.mjs';
import { ensureDependencies } from './lib/dependencies.mjs';
import { runOnLts } from './lib/node-runtime.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';
import { prepareTestServices } from './lib/test-services.mjs';

/** @typedef {{ title: string, command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv }} Step */

const bin = (/** @type {string} */ name) => join(ROOT, 'node_modules', '.bin', name);

/**
 * Runs steps at the same time (each is one process that mostly keeps one core busy), each
 * one's output printed whole when it ends, with its time, so a slow CI run shows where its
 * minutes went. Throws when any failed.
 * @param {Step[]} steps
 */
async function runSideBySide(steps) {
  /** @type {string[]} */
  const failed = [];
  await Promise.all(
    steps.map(async ({ title, command, args, cwd = ROOT, env = process.env }) => {
      const started = Date.now();
      const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      /** @type {Buffer[]} */
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const [code] = await once(child, 'close');
      process.stdout.write(Buffer.concat(output));
      log('test', `${title}: ${code === 0 ? 'done' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
      if (code !== 0) failed.push(title);
    }),
  );
  if (failed.length > 0) throw new Error(`${failed.join(', ')} failed; see the output above`);
}

await runOnLts(import.meta.url);

try {
  ensureDependencies();
  await prepareTestServices();
  ensureChromium('test', 'the browser tests');
  ensureDebianPackage({ binary: PGBOUNCER, name: 'pgbouncer', scope: 'test', purpose: 'the connection-pooler test' });
  // The site the browser tests load names a provider, as a deployment's must (d.lgs.
  // 70/2003): example values where the environment sets none; the tests read them back.
  process.env.PRIVACY_CONTROLLER_NAME ||= 'Esempio Editore S.r.l.';
  process.env.PRIVACY_CONTROLLER_ADDRESS ||= 'Via Roma 1, 20100 Milano';
  process.env.PRIVACY_CONTROLLER_VAT ||= 'IT01234567890';
  process.env.PRIVACY_CONTROLLER_REA ||= 'MI-1234567';
  // Imported once the dependencies are installed (esbuild).
  const { buildWeb } = await import('./build.mjs');
  log('test', 'route types, type-check and lint side by side, the web build');
  await runSideBySide([{ title: 'route types of the web app', command: bin('react-router'), args: ['typegen'], cwd: join(ROOT, 'web') }]);
  await runSideBySide([
    { title: 'type-check', command: bin('tsc'), args: ['-p', 'tsconfig.json'] },
    { title: 'type-check (web)', command: bin('tsc'), args: ['-p', 'web/tsconfig.json'] },
    { title: 'lint (with import boundaries)', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  ]);
  // After the checks: the build writes the route types again, which the checks read. The
  // same production build as npm start's, whatever NODE_ENV this shell has.
  const buildStarted = Date.now();
  buildWeb();
  log('test', `web build (for the browser tests): ${Math.round((Date.now() - buildStarted) / 1000)} s`);
  log('test', 'unit, integration, system and browser tests');
  const vitest = spawn(bin('vitest'), ['run'], { cwd: ROOT, stdio: 'inherit' });
  const [code] = await once(vitest, 'exit');
  process.exit(/** @type {number | null} */ (code) ?? 1);
} catch (error) {
  exitWith(error);
}
