// @ts-check
/**
 * `npm start`: installs what is missing, makes sure PostgreSQL and Redis answer, creates
 * the database, builds, migrates, then runs the API and the worker as two processes
 * (as in production, where each scales on its own) and prints the URL.
 */
import { spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDependencies } from './lib/dependencies.mjs';
import { runOnLts } from './lib/node-runtime.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';

await runOnLts(import.meta.url);

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];

async function prepare() {
  ensureDependencies();
  // These import packages that the step above may just have installed.
  const { loadEnvFile } = await import('./lib/env-file.mjs');
  const { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } = await import('./lib/defaults.mjs');
  const { ensureDatabase, ensurePostgres, ensureRedis } = await import('./lib/services.mjs');
  const { buildGuides, buildServer, buildWeb } = await import('./build.mjs');

  loadEnvFile({ create: true });
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await ensurePostgres(databaseUrl);
  await ensureDatabase(databaseUrl);
  await ensureRedis(process.env.REDIS_URL || DEFAULT_REDIS_URL);

  await buildServer();
  buildGuides();
  buildWeb();

  const migrated = spawnSync(process.execPath, ['api/dist/migrate.js', 'latest'], { cwd: ROOT, stdio: 'inherit' });
  if (migrated.status !== 0) throw new Error('migrations failed (see above)');
}

/** @param {string} name @param {string} entry */
function startProcess(name, entry) {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    log('start', `${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping everything`);
    void stopAll(1);
  });
  children.push(child);
}

let stopping = false;
/** @param {number} exitCode */
async function stopAll(exitCode) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined,
    ),
  );
  process.exit(exitCode);
}

/** @param {string} port */
async function waitForApi(port) {
  for (let i = 0; i < 120; i += 1) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  return false;
}

try {
  await prepare();
  const { DEFAULT_PORT } = await import('./lib/defaults.mjs');
  const port = process.env.PORT || DEFAULT_PORT;
  startProcess('api', 'api/dist/server.js');
  startProcess('worker', 'worker/dist/index.js');
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  if (await waitForApi(port)) {
    log('start', `site, API and worker are up: http://localhost:${port}  (Ctrl+C stops them)`);
  } else {
    log('start', `the API did not become ready on port ${port}; see its log above`);
  }
} catch (error) {
  exitWith(error);
}
