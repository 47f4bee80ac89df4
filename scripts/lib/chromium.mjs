// @ts-check
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { log } from './output.mjs';

/** Debian's Chromium: the browser tests and the web benchmark drive it. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Installs Chromium with apt when it is missing (root on Debian); elsewhere stops with
 * the command to run. Never a browser download from outside Debian's packages.
 * @param {string} scope who asks (a log prefix) @param {string} purpose what needs it
 */
export function ensureChromium(scope, purpose) {
  if (existsSync(CHROMIUM)) return;
  const canApt = process.getuid?.() === 0 && existsSync('/etc/debian_version');
  if (!canApt) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (sudo apt-get install -y chromium)`);
  }
  log(scope, `installing Chromium for ${purpose} (apt-get install -y chromium)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  if (result.status !== 0 || !existsSync(CHROMIUM)) throw new Error('apt-get install chromium failed');
}
