import { Redis } from 'ioredis';

/**
 * - `request`: used while answering HTTP requests. Commands fail at once when Redis is
 *   unreachable (no offline queue), so a visitor never waits on a Redis outage; commands
 *   of concurrent requests share one write (auto-pipelining), which saves CPU under load.
 * - `worker`: BullMQ workers need commands to wait and retry across reconnects.
 */
export function createRedis(url: string, role: 'request' | 'worker'): Redis {
  return new Redis(url, {
    connectionName: `guida-${role}`,
    ...(role === 'request'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, enableAutoPipelining: true }
      : { maxRetriesPerRequest: null }),
  });
}

export type { Redis };
