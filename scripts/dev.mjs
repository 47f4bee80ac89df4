// @ts-check
/**
 * `npm run dev`: the set-up of `npm start` (dependencies, .env, PostgreSQL, Redis, the
 * database, its migrations, the guide PDFs when missing), then the API and the worker from
 * source, restarted on save, and the site on Vite's dev server with hot reload, on PORT;
 * the API listens on DEV_API_PORT behind it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies } from './lib/dependencies.mjs';
import { runOnLts } from './lib/node-runtime.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';

await runOnLts(import.meta.url);

const DEFAULT_DEV_API_PORT = '3001';

async function prepare() {
  ensureDependencies();
  // These import packages that the step above may just have installed.
  const { loadEnvFile } = await import('./lib/env-file.mjs');
  const { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } = await import('./lib/defaults.mjs');
  const { ensureDatabase, ensurePostgres, ensureRedis } = await import('./lib/services.mjs');
  const { buildGuides } = await import('./build.mjs');

  loadEnvFile({ create: true });
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await ensurePostgres(databaseUrl);
  await ensureDatabase(databaseUrl);
  await ensureRedis(process.env.REDIS_URL || DEFAULT_REDIS_URL);
  if (!existsSync(join(ROOT, 'guides', 'dist'))) buildGuides();

  const migrated = spawnSync(process.execPath, ['--import', 'tsx', 'api/src/db/migrate.ts', 'latest'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (migrated.status !== 0) throw new Error('migrations failed (see above)');
}

try {
  await prepare();
  const { DEFAULT_PORT } = await import('./lib/defaults.mjs');
  const { startDevProcesses } = await import('./lib/dev-processes.mjs');
  const sitePort = Number(process.env.PORT || DEFAULT_PORT);
  const apiPort = Number(process.env.DEV_API_PORT || DEFAULT_DEV_API_PORT);
  const dev = startDevProcesses({ sitePort, apiPort, env: process.env });
  log('dev', `site with hot reload on http://localhost:${sitePort} (API on port ${apiPort}); Ctrl+C stops everything`);
  let stopping = false;
  const stop = async (/** @type {number} */ code) => {
    if (stopping) return;
    stopping = true;
    await dev.stop();
    process.exit(code);
  };
  for (const { name, exited } of dev.processes) {
    void exited.then(() => {
      if (!stopping) log('dev', `${name} stopped; stopping everything`);
      void stop(1);
    });
  }
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
} catch (error) {
  exitWith(error);
}
