import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './free-port';
import { randomSuffix, testRedisUrl } from './services';

/** A key prefix (queues, rate limits) private to one test file. */
export const uniquePrefix = (label: string) => `test-${label}-${randomSuffix()}`;

/**
 * Options for a test's own BullMQ worker on a duplicate of the API's connection: the API's
 * connection fails commands while it is not connected yet (no offline queue), a worker's
 * must wait, or a worker started before its connection is up logs "Stream isn't writeable".
 */
export const WORKER_CONNECTION = { maxRetriesPerRequest: null, enableOfflineQueue: true } as const;

/** Removes every key a test wrote under `prefix`. */
export async function deleteRedisKeys(prefix: string, url = testRedisUrl()) {
  const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function waitForPing(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      if ((await redis.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      redis.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server at ${url} did not start`);
}

export interface OwnRedisServer {
  url: string;
  /** Kills the server (SIGKILL: like a crash, nothing saved). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/**
 * A real redis-server of the test's own, on a free port, that the test can stop and
 * start again: for outage scenarios that must not disturb the shared test Redis.
 */
export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    await waitForPing(url, 10_000);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url, start, stop };
}
