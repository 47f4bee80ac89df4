// @ts-check
/**
 * `npm run migrate [latest|up|down|rollback|status]`: runs the bundled migration runner.
 * In development it bundles it first when it is missing (fresh clone) or older than the
 * migrations. The bundler is a dev dependency, so it is imported only then, and never
 * with NODE_ENV=production: there the bundle runs as built, and an install without dev
 * dependencies works. Deployments run `node api/dist/migrate.js latest` (Procfile, compose).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadEnvFile } from './lib/env-file.mjs';
import { exitWith, ROOT } from './lib/output.mjs';

const runner = join(ROOT, 'api', 'dist', 'migrate.js');

function runnerIsStale() {
  if (!existsSync(runner)) return true;
  const migrationsDir = join(ROOT, 'migrations');
  const newestMigration = Math.max(
    ...readdirSync(migrationsDir).map((file) => statSync(join(migrationsDir, file)).mtimeMs),
  );
  return statSync(runner).mtimeMs < newestMigration;
}

try {
  loadEnvFile({ create: false });
  if (process.env.NODE_ENV !== 'production' && runnerIsStale()) {
    const { buildServer } = await import('./build.mjs');
    await buildServer();
  }
  if (!existsSync(runner)) throw new Error('api/dist/migrate.js is missing: run `npm run build` first');
  const result = spawnSync(process.execPath, [runner, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} catch (error) {
  exitWith(error);
}
