/**
 * The deploy path runs on runtime dependencies only (issue 15). The built product is
 * copied with its node_modules, `npm prune --omit=dev` removes the dev dependencies there
 * (offline, as the Dockerfile and Procfile platforms do after the build), and then, in that
 * copy only: the Procfile's release command migrates a fresh database, the production
 * admin commands create admins, and the Procfile's web and worker commands start and answer.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '@guida/migrations';
import { freePort } from '@guida/testing/free-port';
import { runProcess, type RunningProcess } from '@guida/testing/processes';
import { testRedisUrl } from '@guida/testing/services';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKSPACES = ['shared', 'migrations', 'api', 'worker', 'web', 'testing'];
/** What a deployment runs: the bundles, the built site and the manifests npm needs. */
const BUILT = ['api/dist', 'worker/dist', 'web/build/client', 'scripts'];

/**
 * Hard links instead of copies: half a gigabyte of node_modules links in about two seconds,
 * and npm prune only unlinks what it removes, so the originals stay as they are. Copies
 * where the temporary folder is on another file system. (Not a folder of the repository:
 * Node would find the repository's full node_modules above it.)
 */
function linkTree(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else linkOrCopy(source, target);
  }
}

function linkOrCopy(source: string, target: string) {
  try {
    linkSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(source, target);
  }
}

function copyBuiltProduct(to: string) {
  for (const file of ['package.json', 'package-lock.json', 'Procfile']) copyFileSync(join(ROOT, file), join(to, file));
  for (const workspace of WORKSPACES) {
    mkdirSync(join(to, workspace));
    copyFileSync(join(ROOT, workspace, 'package.json'), join(to, workspace, 'package.json'));
    if (existsSync(join(ROOT, workspace, 'node_modules'))) {
      linkTree(join(ROOT, workspace, 'node_modules'), join(to, workspace, 'node_modules'));
    }
  }
  for (const folder of BUILT) linkTree(join(ROOT, folder), join(to, folder));
  linkTree(join(ROOT, 'node_modules'), join(to, 'node_modules'));
  // npm rewrites this file: a copy, so the write cannot reach the original through a link.
  rmSync(join(to, 'node_modules', '.package-lock.json'));
  copyFileSync(join(ROOT, 'node_modules', '.package-lock.json'), join(to, 'node_modules', '.package-lock.json'));
}

/** The Procfile's process types and their commands. */
function procfile(dir: string): Record<string, string> {
  const lines = readFileSync(join(dir, 'Procfile'), 'utf8').split('\n');
  return Object.fromEntries(
    lines.flatMap((line) => {
      const match = /^(\w+):\s*(.+)$/.exec(line.trim());
      return match ? [[match[1], match[2]]] : [];
    }),
  );
}

let product: string;
let database: TestDatabase;
let processes: Record<string, string>;
const prefix = uniquePrefix('production');
const started: RunningProcess[] = [];

/** What a platform gives the processes: production, its node, and nothing of this repository. */
const productionEnv = (extra: Record<string, string> = {}) => ({
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  NODE_ENV: 'production',
  DATABASE_URL: database.url,
  PRIVACY_CONTROLLER_NAME: 'Esempio S.r.l.',
  PRIVACY_CONTROLLER_ADDRESS: 'Via Roma 1, 20100 Milano',
  PRIVACY_CONTROLLER_VAT: 'IT01234567890',
  ...extra,
});

/** A Procfile command as a platform runs it: through a shell, as the process itself. */
function runProcfile(type: string, env: Record<string, string>) {
  expect(processes[type], `Procfile has no ${type}`).toBeDefined();
  const child = runProcess('sh', ['-c', `exec ${processes[type]}`], env, product);
  started.push(child);
  return child;
}

beforeAll(async () => {
  product = mkdtempSync(join(tmpdir(), 'guida-production-'));
  copyBuiltProduct(product);
  const pruned = spawnSync(
    'npm',
    ['prune', '--omit=dev', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'],
    { cwd: product, encoding: 'utf8', timeout: 120_000 },
  );
  expect(pruned.status, `${pruned.stdout}\n${pruned.stderr}`).toBe(0);
  processes = procfile(product);
  database = await createTestDatabase({ empty: true });
}, 180_000);

afterAll(async () => {
  await Promise.all(started.map((child) => child.stop('SIGKILL')));
  await deleteRedisKeys(prefix);
  await database?.drop();
  if (product) rmSync(product, { recursive: true, force: true });
});

describe('a production install without dev dependencies', () => {
  it('has no dev dependency left', () => {
    for (const devOnly of ['esbuild', 'vitest', 'tsx', 'vite', 'testcontainers', 'playwright-core']) {
      expect(existsSync(join(product, 'node_modules', devOnly)), devOnly).toBe(false);
    }
    expect(existsSync(join(product, 'node_modules', 'express'))).toBe(true);
  });

  it('migrates a fresh database with the Procfile release command', async () => {
    const release = runProcfile('release', productionEnv());
    expect(await release.exited, release.output()).toBe(0);
    const applied = await database.db('knex_migrations').orderBy('id').pluck('name');
    expect(applied).toEqual(await migrationSource.getMigrations([]));
    const tables = await database.db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name');
    expect(tables).toEqual(expect.arrayContaining(['ebook_requests', 'sms_messages', 'crm_deliveries', 'users']));

    // The development command, on the same install, runs the bundle without building.
    const status = runProcess('npm', ['run', 'migrate', '--', 'status'], productionEnv(), product);
    expect(await status.exited, status.output()).toBe(0);
    expect(status.output()).toContain('pending: none');
  });

  it('creates admins with the production command and with npm run admin:create', async () => {
    const password = 'Produzione-2026!';
    const direct = runProcess(
      process.execPath,
      ['api/dist/create-admin.js', '--username', 'ops-admin'],
      productionEnv({ ADMIN_PASSWORD: password }),
      product,
    );
    expect(await direct.exited, direct.output()).toBe(0);
    const viaNpm = runProcess(
      'npm',
      ['run', 'admin:create', '--', '--username', 'second-admin'],
      productionEnv({ ADMIN_PASSWORD: password }),
      product,
    );
    expect(await viaNpm.exited, viaNpm.output()).toBe(0);

    const admins = await database.db('users').orderBy('username').select('username', 'is_admin', 'password');
    expect(admins.map(({ username, is_admin }) => ({ username, is_admin }))).toEqual([
      { username: 'ops-admin', is_admin: true },
      { username: 'second-admin', is_admin: true },
    ]);
    for (const admin of admins) expect(admin.password).toMatch(/^\$argon2id\$/);
  });

  it('serves the site and runs the worker with the Procfile web and worker commands', async () => {
    const port = await freePort();
    const env = productionEnv({
      PORT: String(port),
      PUBLIC_BASE_URL: 'https://guida.example',
      TRUST_PROXY: 'loopback',
      // The test's requests reach the API from this machine, as nginx on the same host would.
      BEHIND_LOCAL_PROXY: 'true',
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: prefix,
      SESSION_SECRET: 'production-install-session-secret-0123',
      LINK_TOKEN_SECRET: 'production-install-link-token-secret-01',
      SUPPRESSION_HASH_SECRET: 'production-install-suppression-secret-01',
      ADMIN_SECOND_FACTOR_KEY: 'production-install-second-factor-key-01',
      SHUTDOWN_GRACE_MS: '5000',
      WORKER_METRICS_PORT: String(await freePort()),
    });
    const web = runProcfile('web', env);
    const worker = runProcfile('worker', env);
    await waitFor(
      async () => {
        if (web.child.exitCode !== null) throw new Error(`web exited:\n${web.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok;
      },
      { what: 'the web process to be ready', timeoutMs: 20_000 },
    );
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<html');
    await waitFor(
      () => {
        if (worker.child.exitCode !== null) throw new Error(`worker exited:\n${worker.output()}`);
        return worker.output().includes('worker started');
      },
      { what: 'the worker to start', timeoutMs: 20_000 },
    );
    expect(await web.stop(), web.output()).toBe(0);
    expect(await worker.stop(), worker.output()).toBe(0);
  });
});
