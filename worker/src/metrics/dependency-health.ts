import { withTimeout } from '@guida/shared/server/with-timeout';
import type { WorkerDeps } from '../queue-declaration';

/** Each check gives up after this long: a health probe must answer quickly. */
const CHECK_TIMEOUT_MS = 1500;

export type DependencyHealth = {
  status: 'ok' | 'unavailable';
  checks: { redis: 'ok' | 'unavailable'; postgres: 'ok' | 'unavailable' };
};

/**
 * Whether this worker reaches Redis and PostgreSQL now. Redis is asked only when its
 * connection is up: a command sent while it reconnects would wait in its offline queue.
 */
export async function checkDependencies({ db, connection }: Pick<WorkerDeps, 'db' | 'connection'>): Promise<DependencyHealth> {
  const [redis, postgres] = await Promise.allSettled([
    connection.status === 'ready'
      ? withTimeout(connection.ping(), CHECK_TIMEOUT_MS, 'redis')
      : Promise.reject(new Error(`redis connection ${connection.status}`)),
    withTimeout(db.raw('select 1'), CHECK_TIMEOUT_MS, 'postgres'),
  ]);
  const checks = {
    redis: redis.status === 'fulfilled' ? 'ok' : 'unavailable',
    postgres: postgres.status === 'fulfilled' ? 'ok' : 'unavailable',
  } as const;
  return { status: checks.redis === 'ok' && checks.postgres === 'ok' ? 'ok' : 'unavailable', checks };
}
