import { SMS_STATUS_CALLBACK_PATH } from '@guida/shared/jobs/sms';
import { createDb, databaseSettings } from '@guida/shared/server/db';
import { createJobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { createRedis } from '@guida/shared/server/redis';
import type { WorkerConfig } from './config';
import { createWorkerMetrics } from './metrics';
import { createMailer } from '@guida/shared/server/alerts/alert-channels';
import { createOutboxSmsProvider } from './providers/outbox-sms-provider';
import { createTwilioSmsProvider } from './providers/twilio-sms-provider';
import type { WorkerDeps } from './queue-declaration';

/** Connections and providers chosen by the configuration; tests build it with their own. */
export function createWorkerDependencies(config: WorkerConfig, logger: Logger): WorkerDeps & { close(): Promise<void> } {
  const database = databaseSettings(config);
  const db = createDb(config.DATABASE_URL, {
    ...database,
    applicationName: 'guida-worker',
    logger,
    // A job holds at most one connection at a time.
    poolMax: Math.min(config.WORKER_CONCURRENCY, database.poolMax),
  });
  const connection = createRedis(config, 'worker');
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const queues = createJobQueues({ connection, prefix: config.REDIS_KEY_PREFIX, logger });

  const smsProvider =
    config.SMS_PROVIDER === 'twilio'
      ? createTwilioSmsProvider({
          accountSid: config.TWILIO_ACCOUNT_SID!,
          authToken: config.TWILIO_AUTH_TOKEN!,
          from: config.TWILIO_FROM,
          messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID,
          apiBaseUrl: config.TWILIO_API_BASE_URL,
          statusCallbackUrl: `${config.PUBLIC_BASE_URL}${SMS_STATUS_CALLBACK_PATH}`,
          validitySeconds: config.SMS_VALIDITY_SECONDS,
        })
      : createOutboxSmsProvider(db, logger);
  const mailer = createMailer(config, db, logger);

  const metrics = createWorkerMetrics();
  metrics.readAtScrapeTime({ db, connection, queues, config, logger });

  return {
    config,
    logger,
    db,
    connection,
    queues,
    smsProvider,
    mailer,
    metrics,
    now: () => new Date(),
    async close() {
      await queues.close();
      connection.disconnect();
      mailer.close();
      await db.destroy();
    },
  };
}
