// @ts-check
/**
 * `npm run admin:create -- --username NAME [--reset-second-factor]` (the options are the
 * bundled command's, api/src/admin/create-admin.ts): in development it prepares what it needs like
 * `npm start` (dependencies, .env, PostgreSQL, database, bundle, migrations), then creates
 * the admin. With NODE_ENV=production it prepares nothing (no .env, no database server, no
 * bundler: dev dependencies may be pruned) and runs the bundled command as built, which is
 * what deployments run: `node api/dist/create-admin.js --username NAME`.
 */
import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './lib/dependencies.mjs';
import { exitWith, ROOT } from './lib/output.mjs';

/** @param {string[]} args */
function runBundled(args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  return result.status ?? 1;
}

async function prepareForDevelopment() {
  ensureDependencies();
  // These import packages that the step above may just have installed.
  const { loadEnvFile } = await import('./lib/env-file.mjs');
  const { DEFAULT_DATABASE_URL } = await import('./lib/defaults.mjs');
  const { ensureDatabase, ensurePostgres } = await import('./lib/services.mjs');
  const { buildServer } = await import('./build.mjs');

  loadEnvFile({ create: true });
  process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL;
  await ensurePostgres(process.env.DATABASE_URL);
  await ensureDatabase(process.env.DATABASE_URL);
  await buildServer();
  if (runBundled(['api/dist/migrate.js', 'latest']) !== 0) throw new Error('migrations failed (see above)');
}

try {
  if (process.env.NODE_ENV !== 'production') await prepareForDevelopment();
  process.exit(runBundled(['api/dist/create-admin.js', ...process.argv.slice(2)]));
} catch (error) {
  exitWith(error);
}
