import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * ioredis 6 backs off to 5 s between reconnection attempts, so a process would notice a
 * Redis that is back only up to 5 s late: the API refusing to enqueue, the worker idle.
 * An attempt costs one refused TCP connection, so retry at most every second (jittered,
 * so that many processes do not all arrive at once).
 */
export function reconnectDelay(attempt: number, random = Math.random()) {
  return Math.min(50 * 2 ** (attempt - 1), 1000) + Math.floor(random * 100);
}

/**
 * - `request`: used while answering HTTP requests. Commands fail at once when Redis is
 *   unreachable (no offline queue), so a visitor never waits on a Redis outage; commands
 *   of concurrent requests share one write (auto-pipelining), which saves CPU under load.
 *   No command timeout: a BullMQ queue whose first command fails stays broken; a Redis
 *   that hangs is bounded where a visitor waits instead (the enqueue, the rate limits).
 * - `worker`: BullMQ workers need commands to wait and retry across reconnects.
 */
export function createRedis(settings: RedisSettings | string, role: 'request' | 'worker'): Redis {
  const options: RedisOptions = {
    connectionName: `guida-${role}`,
    retryStrategy: reconnectDelay,
    ...(role === 'request'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, enableAutoPipelining: true }
      : { maxRetriesPerRequest: null }),
  };
  const server = typeof settings === 'string' ? { REDIS_URL: settings } : settings;
  return server.REDIS_SENTINELS
    ? new Redis({ ...sentinelOptions(server, server.REDIS_SENTINELS), ...options })
    : new Redis(server.REDIS_URL, { ...tlsOptions(server), ...options });
}

/** The Redis settings of the environment (shared/src/config.ts). */
export interface RedisSettings {
  REDIS_URL: string;
  REDIS_SENTINELS?: { host: string; port: number }[] | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
  REDIS_TLS_CA?: string | undefined;
}

/** A private CA for rediss:// (Heroku's, a self-hosted server's): TLS, verified against it. */
function tlsOptions(settings: RedisSettings): RedisOptions {
  const secure = settings.REDIS_URL.startsWith('rediss:') || settings.REDIS_TLS_CA !== undefined;
  if (!secure) return {};
  return { tls: settings.REDIS_TLS_CA ? { ca: readFileSync(settings.REDIS_TLS_CA, 'utf8') } : {} };
}

/**
 * ioredis asks the sentinels for the master, and asks again on every reconnection: a master
 * that fails closes its connections, and the processes follow the failover as soon as the
 * sentinels name the new one. REDIS_URL gives the credentials, database and TLS.
 *
 * Without ioredis's `failoverDetector` (decision 064): when its `+switch-master` message
 * arrives while a connection is reconnecting, ioredis 6 ends that connection for good
 * ("Connection is closed." on every command), and a worker stopped sending SMS.
 */
function sentinelOptions(settings: RedisSettings, sentinels: { host: string; port: number }[]): RedisOptions {
  const url = new URL(settings.REDIS_URL);
  const tls = tlsOptions(settings);
  return {
    sentinels,
    name: settings.REDIS_SENTINEL_NAME ?? 'mymaster',
    ...(settings.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: settings.REDIS_SENTINEL_PASSWORD } : {}),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    db: Number(url.pathname.slice(1) || 0),
    // TLS to the master the sentinels name; the sentinels themselves answer in plain text.
    ...(tls.tls ? { ...tls, enableTLSForSentinelMode: true } : {}),
    sentinelRetryStrategy: reconnectDelay,
  };
}

export type { Redis };
