/**
 * A real Redis high-availability group of the test's own: a master, a replica and three
 * sentinels (`redis-server --sentinel`), with the short detection times a test can wait
 * for (the master is down after 1 s without answers; production sentinels use 5–30 s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

export const SENTINEL_MASTER_NAME = 'guida-test';

export interface SentinelGroup {
  /** redis://127.0.0.1:<master port>, for credentials only: clients ask the sentinels. */
  url: string;
  /** `host:port,…` of the three sentinels (REDIS_SENTINELS). */
  sentinels: string;
  masterPort: number;
  replicaPort: number;
  /** The port the sentinels name as master now. */
  currentMasterPort(): Promise<number>;
  /** SIGKILL of the master: a crash, nothing saved. */
  killMaster(): void;
  stop(): Promise<void>;
}

const quietRedis = (port: number) => {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  return redis;
};

async function ask<T>(port: number, command: (redis: Redis) => Promise<T>): Promise<T | undefined> {
  const redis = quietRedis(port);
  try {
    await redis.connect();
    return await command(redis);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

export async function startSentinelGroup(): Promise<SentinelGroup> {
  const dir = mkdtempSync(join(tmpdir(), 'sentinels-'));
  const [masterPort, replicaPort, ...sentinelPorts] = await Promise.all(Array.from({ length: 5 }, () => freePort()));
  const children: ChildProcess[] = [];
  const server = (port: number, extra: string[] = []) =>
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', ...extra], {
      stdio: 'ignore',
    });
  const master = server(masterPort!);
  children.push(master, server(replicaPort!, ['--replicaof', '127.0.0.1', String(masterPort)]));
  for (const port of sentinelPorts) {
    // A sentinel rewrites its configuration file: each gets its own.
    const file = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 10000`,
        `sentinel parallel-syncs ${SENTINEL_MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    children.push(spawn('redis-server', [file, '--sentinel'], { stdio: 'ignore' }));
  }
  const currentMasterPort = async () => {
    for (const port of sentinelPorts) {
      const address = await ask(port!, (redis) => redis.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER_NAME) as Promise<string[] | null>);
      if (address) return Number(address[1]);
    }
    throw new Error('no sentinel answers');
  };
  // Ready when the replica is in sync and every sentinel knows the replica and the others.
  await waitFor(
    async () => {
      const link = await ask(replicaPort!, (redis) => redis.info('replication'));
      if (!link?.includes('master_link_status:up')) return false;
      for (const port of sentinelPorts) {
        const replicas = await ask(port!, (redis) => redis.call('SENTINEL', 'replicas', SENTINEL_MASTER_NAME) as Promise<unknown[]>);
        const peers = await ask(port!, (redis) => redis.call('SENTINEL', 'sentinels', SENTINEL_MASTER_NAME) as Promise<unknown[]>);
        if (replicas?.length !== 1 || peers?.length !== 2) return false;
      }
      return true;
    },
    { what: 'the replica and the sentinels to find each other', timeoutMs: 30_000, intervalMs: 250 },
  );
  return {
    url: `redis://127.0.0.1:${masterPort}`,
    sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
    masterPort: masterPort!,
    replicaPort: replicaPort!,
    currentMasterPort,
    killMaster: () => master.kill('SIGKILL'),
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
