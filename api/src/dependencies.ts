import type { Knex } from 'knex';
import { createDb, databaseSettings } from '@guida/shared/server/db';
import { createJobQueues, type JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { createRedis, type Redis } from '@guida/shared/server/redis';
import type { ApiConfig } from './config';
import { createApiMetrics, type ApiMetrics } from './metrics';

/**
 * A visitor waits for the enqueue after the insert: one that takes longer is given up (the
 * lead is stored; a sweep adds its jobs), so an answer stays well within a second.
 */
const ENQUEUE_TIMEOUT_MS = 300;

/** Everything the routes use; tests build it with their own database and Redis prefix. */
export interface ApiDeps {
  config: ApiConfig;
  logger: Logger;
  db: Knex;
  redis: Redis;
  queues: JobQueues;
  metrics: ApiMetrics;
  /** The clock of the offer's deadline (decision 047); tests move it. Default: the system's. */
  now?: () => Date;
}

export function createApiDependencies(config: ApiConfig, logger: Logger): ApiDeps & { close(): Promise<void> } {
  const db = createDb(config.DATABASE_URL, { ...databaseSettings(config), applicationName: 'guida-api', logger });
  const redis = createRedis(config, 'request');
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const queues = createJobQueues({
    connection: redis,
    prefix: config.REDIS_KEY_PREFIX,
    logger,
    failFast: true,
    addTimeoutMs: ENQUEUE_TIMEOUT_MS,
  });
  const metrics = createApiMetrics();
  metrics.readWorkerHeartbeatsFrom(db);
  return {
    config,
    logger,
    db,
    redis,
    queues,
    metrics,
    async close() {
      await queues.close();
      redis.disconnect();
      await db.destroy();
    },
  };
}
