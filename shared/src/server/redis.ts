import { Redis } from 'ioredis';

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
export function createRedis(url: string, role: 'request' | 'worker'): Redis {
  return new Redis(url, {
    connectionName: `guida-${role}`,
    retryStrategy: reconnectDelay,
    ...(role === 'request'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, enableAutoPipelining: true }
      : { maxRetriesPerRequest: null }),
  });
}

export type { Redis };
