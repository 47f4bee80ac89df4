import { parseEnv } from '@guida/shared/config';
import { createLogger } from '@guida/shared/server/logger';
import { TEST_LINK_TOKEN_SECRET } from '@guida/testing/lead-fixture';
import { testRedisUrl } from '@guida/testing/services';
import { createTestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { workerEnvSchema } from '../config';
import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import type { Logger } from '@guida/shared/server/logger';
import { claimTimeouts } from '../claim-timeouts';
import { createWorkerDependencies } from '../dependencies';
import { createSweepPendingDeliveries } from '../maintenance/sweep-pending-deliveries';
import { startWorkers } from '../start-workers';

/**
 * Worker dependencies on a private copy of the test database and a private Redis prefix,
 * with short retry delays. `start: false` gives the dependencies without running workers;
 * `now` replaces the clock the SMS budgets are counted by.
 */
export async function createTestWorker(
  env: Record<string, string> = {},
  { start = true, now }: { start?: boolean; now?: () => Date } = {},
) {
  const database = await createTestDatabase();
  const prefix = uniquePrefix('worker');
  const config = parseEnv(workerEnvSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: prefix,
    PUBLIC_BASE_URL: 'https://guida.example.it',
    LINK_TOKEN_SECRET: TEST_LINK_TOKEN_SECRET,
    SMS_RETRY_BASE_MS: '20',
    CRM_RETRY_BASE_MS: '20',
    EMAIL_RETRY_BASE_MS: '20',
    // Tests run the sweep themselves.
    SWEEP_INTERVAL_MS: '3600000',
    ...env,
  });
  const deps = createWorkerDependencies(config, createLogger({ service: 'worker-test', level: config.LOG_LEVEL }));
  if (now) deps.now = now;
  const runtime = start ? startWorkers(deps) : null;
  return {
    config,
    deps,
    runtime,
    db: database.db,
    /** The sweep as the maintenance queue builds it, without grace unless asked; tests run it themselves. */
    sweeper({ graceMs = 0, now = () => new Date(), logger = deps.logger }: { graceMs?: number; now?: () => Date; logger?: Logger } = {}) {
      return createSweepPendingDeliveries({
        db: database.db,
        queues: deps.queues,
        logger,
        graceMs,
        claimTimeouts: claimTimeouts(config),
        smsBudget: { limits: smsBudgetLimits(config), now },
        heldEmailAfterMinutes: config.SMS_HELD_EMAIL_AFTER_MINUTES,
      });
    },
    async close() {
      await runtime?.close(5000);
      await deps.close();
      await deleteRedisKeys(prefix, config.REDIS_URL).catch(() => undefined);
      await database.drop();
    },
  };
}

export type TestWorker = Awaited<ReturnType<typeof createTestWorker>>;
