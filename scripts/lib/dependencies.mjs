// @ts-check
/**
 * Installs npm dependencies when they are missing or older than the lockfile. Uses only
 * Node built-ins: it runs before anything is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { log, ROOT } from './output.mjs';

export function ensureDependencies() {
  const lock = join(ROOT, 'package-lock.json');
  const installed = join(ROOT, 'node_modules', '.package-lock.json');
  const stale = !existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs);
  if (!stale) return;
  const command = existsSync(lock) ? 'ci' : 'install';
  log('setup', `installing npm dependencies (npm ${command})`);
  const result = spawnSync('npm', [command, '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`npm ${command} failed; check the output above (network access to the npm registry?)`);
  }
}
