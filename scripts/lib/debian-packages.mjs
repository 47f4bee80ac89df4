// @ts-check
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { log } from './output.mjs';

/** Debian's Chromium: the browser tests and the web benchmark drive it. */
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's PgBouncer: a system test runs the product behind it in transaction mode. */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * Installs Debian's package `name` with apt when `binary` is missing (root on Debian);
 * elsewhere stops with the command to run. Never a download from outside Debian's packages.
 * @param {{ binary: string; name: string; scope: string; purpose: string }} wanted
 */
export function ensureDebianPackage({ binary, name, scope, purpose }) {
  if (existsSync(binary)) return;
  const canApt = process.getuid?.() === 0 && existsSync('/etc/debian_version');
  if (!canApt) {
    throw new Error(`${binary} is missing: install Debian's ${name} package (sudo apt-get install -y ${name})`);
  }
  log(scope, `installing ${name} for ${purpose} (apt-get install -y ${name})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', name], { stdio: 'inherit', env });
  if (result.status !== 0 || !existsSync(binary)) throw new Error(`apt-get install ${name} failed`);
}

/** @param {string} scope who asks (a log prefix) @param {string} purpose what needs it */
export const ensureChromium = (scope, purpose) => ensureDebianPackage({ binary: CHROMIUM, name: 'chromium', scope, purpose });
