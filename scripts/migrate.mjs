// @ts-check
/**
 * `npm run migrate [latest|up|down|rollback|status]`: runs the bundled migration runner,
 * bundling it first when it is missing (fresh clone) or older than the migrations.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer } from './build.mjs';
import { loadEnvFile } from './lib/env-file.mjs';
import { exitWith, ROOT } from './lib/output.mjs';

const runner = join(ROOT, 'api', 'dist', 'migrate.js');
const migrationsDir = join(ROOT, 'migrations');
const newestMigration = Math.max(
  ...readdirSync(migrationsDir).map((file) => statSync(join(migrationsDir, file)).mtimeMs),
);

try {
  loadEnvFile({ create: false });
  if (!existsSync(runner) || statSync(runner).mtimeMs < newestMigration) await buildServer();
  const result = spawnSync(process.execPath, [runner, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} catch (error) {
  exitWith(error);
}
