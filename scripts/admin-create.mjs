// @ts-check
/**
 * `npm run admin:create -- --username NAME`: prepares what it needs like `npm start`
 * (dependencies, PostgreSQL, database, bundle, migrations), then creates the admin.
 */
import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './lib/dependencies.mjs';
import { exitWith, ROOT } from './lib/output.mjs';

try {
  ensureDependencies();
  const { loadEnvFile } = await import('./lib/env-file.mjs');
  const { DEFAULT_DATABASE_URL } = await import('./lib/defaults.mjs');
  const { ensureDatabase, ensurePostgres } = await import('./lib/services.mjs');
  const { buildServer } = await import('./build.mjs');

  loadEnvFile({ create: true });
  process.env.DATABASE_URL ||= DEFAULT_DATABASE_URL;
  await ensurePostgres(process.env.DATABASE_URL);
  await ensureDatabase(process.env.DATABASE_URL);
  await buildServer();
  const migrated = spawnSync(process.execPath, ['api/dist/migrate.js', 'latest'], { cwd: ROOT, stdio: 'inherit' });
  if (migrated.status !== 0) throw new Error('migrations failed (see above)');
  const created = spawnSync(process.execPath, ['api/dist/create-admin.js', ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.exit(created.status ?? 1);
} catch (error) {
  exitWith(error);
}
