// @ts-check
/**
 * Makes sure PostgreSQL and Redis answer, trying in order: the servers the URLs name,
 * servers already running on this machine, the local Debian servers (started), a fresh
 * install with apt (root on Debian only), `docker compose` (when a Docker engine
 * answers). Otherwise it stops and says what to install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { log, ROOT } from './output.mjs';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);

/** @param {string} command */
const hasCommand = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** @param {string} command @param {string[]} args */
function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const canUseApt = () => isRoot() && existsSync('/etc/debian_version') && hasCommand('apt-get');

let aptUpdated = false;
/** @param {string[]} packages */
function aptInstall(packages) {
  log('services', `installing ${packages.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0) throw new Error(`apt-get install ${packages.join(' ')} failed`);
}

/** A Docker engine answers and the compose plugin is there. */
function dockerComposeAvailable() {
  if (!hasCommand('docker')) return false;
  const ok = (/** @type {string[]} */ args) => spawnSync('docker', args, { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return ok(['info']) && ok(['compose', 'version']);
}

/** @param {string} service */
function dockerComposeUp(service) {
  log('services', `starting ${service} with docker compose`);
  if (!run('docker', ['compose', '-f', join(ROOT, 'docker-compose.yml'), 'up', '-d', service])) {
    throw new Error(`docker compose up ${service} failed`);
  }
}

/** @param {() => Promise<boolean>} check @param {number} seconds */
async function waitUntil(check, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(500);
  }
  return false;
}

/* ------------------------------ PostgreSQL ------------------------------ */

/** @param {string} url @param {string} database */
function withDatabase(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * 'up' when the server answers (even if it refuses our database), 'down' when nothing
 * listens, or the error message when it answers but refuses us (wrong password...).
 * @param {string} url
 */
async function postgresState(url) {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres'), connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return 'up';
  } catch (error) {
    const code = /** @type {{ code?: string }} */ (error).code;
    if (code === '3D000') return 'up'; // no "postgres" database, but the server answers
    if (code && UNREACHABLE.has(code)) return 'down';
    if (code === '57P03') return 'down'; // starting up
    return /** @type {Error} */ (error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function startDebianPostgres() {
  if (!hasCommand('pg_lsclusters') || !hasCommand('pg_ctlcluster')) return false;
  const listing = spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' }).stdout ?? '';
  const clusters = listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 4);
  let started = false;
  for (const [version, name, , status] of clusters) {
    if (!version || !name || status === 'online') continue;
    log('services', `starting PostgreSQL cluster ${version}/${name}`);
    started = run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start']) || started;
  }
  return started;
}

/** A fresh apt install only allows password logins over TCP; this dev server trusts localhost. */
function trustLocalConnections() {
  const base = '/etc/postgresql';
  if (!existsSync(base)) return;
  for (const version of readdirSync(base)) {
    const hba = join(base, version, 'main', 'pg_hba.conf');
    if (!existsSync(hba)) continue;
    const current = readFileSync(hba, 'utf8');
    if (current.includes('added by guida-finanza')) continue;
    writeFileSync(
      hba,
      '# added by guida-finanza npm start: trust local TCP connections (development install)\n' +
        'host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n' +
        current,
    );
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart']);
  }
}

/** @param {string} url */
export async function ensurePostgres(url) {
  const { hostname, port } = new URL(url);
  const where = `${hostname}:${port || 5432}`;
  const check = async () => (await postgresState(url)) === 'up';
  const state = await postgresState(url);
  if (state === 'up') return log('services', `PostgreSQL answers at ${where}`);
  if (state !== 'down') throw new Error(`PostgreSQL at ${where} refused the connection: ${state}`);
  if (!LOCAL_HOSTS.has(hostname)) {
    throw new Error(`PostgreSQL at ${where} (DATABASE_URL) does not answer. Start it, or point DATABASE_URL at a running server.`);
  }
  if (startDebianPostgres() && (await waitUntil(check, 30))) {
    return log('services', `started the local PostgreSQL server at ${where}`);
  }
  if (!hasCommand('pg_lsclusters') && canUseApt()) {
    aptInstall(['postgresql']);
    trustLocalConnections();
    startDebianPostgres();
    if (await waitUntil(check, 60)) return log('services', `installed and started PostgreSQL at ${where}`);
  }
  if (dockerComposeAvailable()) {
    dockerComposeUp('postgres');
    if (await waitUntil(check, 90)) return log('services', `PostgreSQL runs in Docker at ${where}`);
  }
  throw new Error(
    `PostgreSQL does not answer at ${where} and could not be started here.\n` +
      '  Install PostgreSQL 15 or newer (Debian/Ubuntu: sudo apt-get install postgresql),\n' +
      '  or install Docker (then npm start runs it with docker compose),\n' +
      '  or set DATABASE_URL to a running server.',
  );
}

/** Creates the database named in the URL when it does not exist yet. @param {string} url */
export async function ensureDatabase(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database');
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      log('services', `created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

/* --------------------------------- Redis -------------------------------- */

/** @param {string} url */
async function redisAnswers(url) {
  const redis = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 2000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Starts redis-server with its data in .data/redis (append-only file, no eviction). @param {string} port */
function startLocalRedis(port) {
  if (!hasCommand('redis-server')) return false;
  const dir = join(ROOT, '.data', 'redis');
  mkdirSync(dir, { recursive: true });
  log('services', `starting redis-server on port ${port} (data in .data/redis)`);
  return run('redis-server', [
    '--daemonize', 'yes',
    '--bind', '127.0.0.1', '-::1',
    '--port', port,
    '--dir', dir,
    '--logfile', join(dir, 'redis.log'),
    '--appendonly', 'yes',
    '--save', '',
    '--maxmemory-policy', 'noeviction',
  ]);
}

/** @param {string} url */
export async function ensureRedis(url) {
  const { hostname, port } = new URL(url);
  const redisPort = port || '6379';
  const where = `${hostname}:${redisPort}`;
  const check = () => redisAnswers(url);
  if (await check()) return log('services', `Redis answers at ${where}`);
  if (!LOCAL_HOSTS.has(hostname)) {
    throw new Error(`Redis at ${where} (REDIS_URL) does not answer. Start it, or point REDIS_URL at a running server.`);
  }
  if (startLocalRedis(redisPort) && (await waitUntil(check, 15))) {
    return log('services', `started Redis at ${where}`);
  }
  if (!hasCommand('redis-server') && canUseApt()) {
    aptInstall(['redis-server']);
    if (startLocalRedis(redisPort) && (await waitUntil(check, 15))) {
      return log('services', `installed and started Redis at ${where}`);
    }
  }
  if (dockerComposeAvailable()) {
    dockerComposeUp('redis');
    if (await waitUntil(check, 60)) return log('services', `Redis runs in Docker at ${where}`);
  }
  throw new Error(
    `Redis does not answer at ${where} and could not be started here.\n` +
      '  Install Redis 7 or newer (Debian/Ubuntu: sudo apt-get install redis-server),\n' +
      '  or install Docker (then npm start runs it with docker compose),\n' +
      '  or set REDIS_URL to a running server.',
  );
}
