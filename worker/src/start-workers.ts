import { Worker, type Job, type Processor } from 'bullmq';
import type { Knex } from 'knex';
import { RETRY_BACKOFF_TYPE, type QueueName } from '@guida/shared/jobs/definition';
import { applyRetentionJob, rollUpFunnelJob, sweepPendingDeliveriesJob } from '@guida/shared/jobs/maintenance';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { Redis } from '@guida/shared/server/redis';
import { startAnalyticsConsumer } from './analytics/analytics-consumer';
import { createRollUpFunnel } from './analytics/roll-up-funnel';
import { claimTimeouts } from './claim-timeouts';
import type { WorkerConfig } from './config';
import { createDeliverToCrm } from './crm/deliver-to-crm';
import { createSendEmail } from './email/send-email';
import type { Mailer } from './email/mailer';
import { createProcessDataRequest } from './gdpr/process-data-request';
import { createApplyRetention } from './retention/apply-retention';
import type { SmsProvider } from './sms/providers/sms-provider';
import { createSendGuideSms } from './sms/send-guide-sms';
import { createSweepPendingDeliveries } from './sweeper/sweep-pending-deliveries';

export interface WorkerDeps {
  config: WorkerConfig;
  logger: Logger;
  db: Knex;
  /** Connection for the workers' blocking commands (maxRetriesPerRequest: null). */
  connection: Redis;
  queues: JobQueues;
  smsProvider: SmsProvider;
  mailer: Mailer;
}

const MAX_RETRY_DELAY_MS = 6 * 3600 * 1000;
/** Days close at midnight; an hourly run keeps the rollup at most an hour behind. */
const FUNNEL_ROLLUP_INTERVAL_MS = 3600 * 1000;

/** Exponential backoff with ±25 % jitter, so retries after an outage do not arrive in step. */
export function retryDelay(baseMs: number, attemptsMade: number, random = Math.random()) {
  const exponential = baseMs * 2 ** Math.max(0, attemptsMade - 1);
  return Math.round(Math.min(exponential, MAX_RETRY_DELAY_MS) * (0.75 + random * 0.5));
}

/** Starts one BullMQ Worker per queue; scale by running more worker processes. */
export function startWorkers(deps: WorkerDeps) {
  const { config, logger } = deps;

  const workerFor = (
    queue: QueueName,
    processor: Processor,
    options: { concurrency: number; retryBaseMs: number; limiter?: { max: number; duration: number } },
  ) => {
    const worker = new Worker(queue, processor, {
      connection: deps.connection,
      prefix: config.REDIS_KEY_PREFIX,
      concurrency: options.concurrency,
      ...(options.limiter ? { limiter: options.limiter } : {}),
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string) =>
          type === RETRY_BACKOFF_TYPE ? retryDelay(options.retryBaseMs, attemptsMade) : 0,
      },
    });
    worker.on('error', (error) => logger.error({ queue, err: error.message }, 'worker error'));
    worker.on('failed', (job: Job | undefined, error: Error) => {
      if (job && (error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1))) {
        logger.error({ queue, jobId: job.id, err: error.message }, 'job failed for good');
      }
    });
    return worker;
  };

  const claimTimeoutMs = claimTimeouts(config);
  const sweep = createSweepPendingDeliveries({
    db: deps.db,
    queues: deps.queues,
    logger,
    graceMs: config.SWEEP_GRACE_MS,
    claimTimeouts: claimTimeoutMs,
  });

  const applyRetention = createApplyRetention({
    db: deps.db,
    queues: deps.queues,
    logger,
    retentionMonths: config.RETENTION_MONTHS,
    noticeDays: config.RETENTION_NOTICE_DAYS,
    analyticsRetentionMonths: config.ANALYTICS_RETENTION_MONTHS,
  });

  const rollUpFunnel = createRollUpFunnel({ db: deps.db, logger });

  const workers = [
    workerFor(
      'sms',
      createSendGuideSms({
        db: deps.db,
        queues: deps.queues,
        logger,
        provider: deps.smsProvider,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        claimTimeoutMs: claimTimeoutMs.sms,
        rateLimit: (ms) => deps.queues.queue('sms').rateLimit(ms),
      }),
      {
        concurrency: config.WORKER_CONCURRENCY,
        retryBaseMs: config.SMS_RETRY_BASE_MS,
        limiter: { max: config.SMS_RATE_PER_SECOND, duration: 1000 },
      },
    ),
    workerFor(
      'crm',
      createDeliverToCrm({
        db: deps.db,
        logger,
        webhook:
          config.CRM_WEBHOOK_URL && config.CRM_WEBHOOK_SECRET
            ? { url: config.CRM_WEBHOOK_URL, secret: config.CRM_WEBHOOK_SECRET, timeoutMs: config.CRM_TIMEOUT_MS }
            : null,
        claimTimeoutMs: claimTimeoutMs.crm,
      }),
      { concurrency: config.WORKER_CONCURRENCY, retryBaseMs: config.CRM_RETRY_BASE_MS },
    ),
    workerFor(
      'email',
      createSendEmail({
        db: deps.db,
        logger,
        mailer: deps.mailer,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        confirmLinkTtlHours: config.GDPR_CONFIRM_LINK_TTL_HOURS,
        exportLinkTtlDays: config.GDPR_EXPORT_LINK_TTL_DAYS,
        retentionMonths: config.RETENTION_MONTHS,
        claimTimeoutMs: claimTimeoutMs.email,
      }),
      { concurrency: Math.min(config.WORKER_CONCURRENCY, 10), retryBaseMs: config.EMAIL_RETRY_BASE_MS },
    ),
    // Data requests are rare and an erasure scans queues: one or two at a time is plenty.
    workerFor(
      'gdpr',
      createProcessDataRequest({ db: deps.db, queues: deps.queues, logger, retentionMonths: config.RETENTION_MONTHS }),
      { concurrency: 2, retryBaseMs: config.GDPR_RETRY_BASE_MS },
    ),
    workerFor(
      'maintenance',
      async (job) => {
        if (job.name === sweepPendingDeliveriesJob.name) return sweep();
        if (job.name === applyRetentionJob.name) return applyRetention();
        if (job.name === rollUpFunnelJob.name) return rollUpFunnel();
        throw new Error(`unknown maintenance job ${job.name}`);
      },
      { concurrency: 1, retryBaseMs: config.SWEEP_INTERVAL_MS },
    ),
  ];

  // Reading the analytics stream blocks its connection, so it gets one of its own.
  const analyticsConnection = deps.connection.duplicate();
  analyticsConnection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const analytics = startAnalyticsConsumer({
    redis: analyticsConnection,
    db: deps.db,
    logger,
    prefix: config.REDIS_KEY_PREFIX,
  });

  // One scheduler entry in Redis per job: however many workers run, each runs once per interval.
  // Written again on every (re)connection, since a Redis restarted without persistence has
  // lost it; never awaited, so start-up does not wait for Redis.
  const schedule = (name: string, every: number) =>
    deps.queues
      .queue('maintenance')
      .upsertJobScheduler(name, { every }, { name, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } })
      .catch((error: Error) => logger.error({ job: name, err: error.message }, 'could not schedule a maintenance job'));
  const onRedisReady = () => {
    void schedule(sweepPendingDeliveriesJob.name, config.SWEEP_INTERVAL_MS);
    void schedule(applyRetentionJob.name, config.RETENTION_INTERVAL_MS);
    void schedule(rollUpFunnelJob.name, FUNNEL_ROLLUP_INTERVAL_MS);
  };
  onRedisReady();
  deps.connection.on('ready', onRedisReady);

  return {
    workers,
    sweep,
    applyRetention,
    rollUpFunnel,
    analytics,
    /** Waits for active jobs to finish; jobs still running at `graceMs` are handed back. */
    async close(graceMs: number) {
      deps.connection.off('ready', onRedisReady);
      const closing = Promise.all([
        ...workers.map((worker) => worker.close()),
        analytics.stop().then(() => analyticsConnection.disconnect()),
      ]);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        closing.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        // Their locks expire and another worker picks them up as stalled jobs.
        logger.warn('active jobs did not finish in time; handing them back');
        await Promise.all(workers.map((worker) => worker.close(true)));
      }
    },
  };
}
