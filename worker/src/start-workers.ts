import { Worker, type Job } from 'bullmq';
import { RETRY_BACKOFF_TYPE } from '@guida/shared/jobs/definition';
import { reportError } from '@guida/shared/server/error-tracker';
import { startWorkerHeartbeat } from '@guida/shared/server/worker-heartbeats';
import { alertsQueue } from './alerts/alerts.queue';
import { startAnalyticsConsumer } from './analytics/analytics-consumer';
import { claimTimeouts } from './claim-timeouts';
import { conversionsQueue } from './conversions/conversions.queue';
import { crmQueue } from './crm/crm.queue';
import { emailQueue } from './email/email.queue';
import { gdprQueue } from './gdpr/gdpr.queue';
import { maintenanceQueue } from './maintenance/maintenance.queue';
import type { QueueDeclaration, WorkerDeps } from './queue-declaration';
import { smsQueue } from './sms/sms.queue';
import { smsPriceQueue } from './sms-price/sms-price.queue';
import { tracedProcessor } from './traced-processor';

/** Every queue the worker runs, each declared in its feature folder. */
export const QUEUES: readonly QueueDeclaration[] = [smsQueue, crmQueue, emailQueue, gdprQueue, maintenanceQueue, alertsQueue, smsPriceQueue, conversionsQueue];

const MAX_RETRY_DELAY_MS = 6 * 3600 * 1000;

/** Exponential backoff with ±25 % jitter, so retries after an outage do not arrive in step. */
export function retryDelay(baseMs: number, attemptsMade: number, random = Math.random()) {
  const exponential = baseMs * 2 ** Math.max(0, attemptsMade - 1);
  return Math.round(Math.min(exponential, MAX_RETRY_DELAY_MS) * (0.75 + random * 0.5));
}

/** Starts one BullMQ Worker per declared queue; scale by running more worker processes. */
export function startWorkers(deps: WorkerDeps) {
  const { config, logger } = deps;
  const processorDeps = { ...deps, claimTimeouts: claimTimeouts(config) };
  // What the API watches to alert when no worker runs (decision 058).
  const heartbeat = startWorkerHeartbeat({ db: deps.db, logger, now: deps.now });

  const workers = QUEUES.map((declaration) => {
    const { queue } = declaration;
    const retryBaseMs = declaration.retryBaseMs(config);
    const worker = new Worker(queue, tracedProcessor(queue, declaration.processor(processorDeps)), {
      connection: deps.connection,
      prefix: config.REDIS_KEY_PREFIX,
      concurrency: declaration.concurrency(config),
      ...(declaration.limiter ? { limiter: declaration.limiter(config) } : {}),
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string) =>
          type === RETRY_BACKOFF_TYPE ? retryDelay(retryBaseMs, attemptsMade) : 0,
      },
    });
    worker.on('error', (error) => logger.error({ queue, err: error.message }, 'worker error'));
    worker.on('failed', (job: Job | undefined, error: Error) => {
      if (job && (error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1))) {
        logger.error({ queue, jobId: job.id, err: error.message }, 'job failed for good');
        reportError(error, { queue });
      }
    });
    return worker;
  });

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
  const schedules = QUEUES.flatMap((declaration) =>
    (declaration.schedules?.(config) ?? []).map((schedule) => ({ queue: declaration.queue, ...schedule })),
  );
  // A scheduler that survived the outage keeps its next run (it runs at once only when
  // created), so after a disconnection one worker also sweeps right away, without grace:
  // Redis may have lost its jobs, and the leads stored meanwhile have none (decision 023).
  let disconnected = false;
  const onRedisClose = () => {
    disconnected = true;
  };
  const onRedisReady = () => {
    for (const { queue, job, everyMs } of schedules) {
      deps.queues
        .queue(queue)
        .upsertJobScheduler(job.name, { every: everyMs }, { name: job.name, data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } })
        .catch((error: Error) => logger.error({ job: job.name, err: error.message }, 'could not schedule a recurring job'));
    }
    if (disconnected) {
      disconnected = false;
      deps.queues
        .requestSweep()
        .catch((error: Error) => logger.error({ err: error.message }, 'could not ask for a sweep after reconnecting'));
    }
  };
  onRedisReady();
  deps.connection.on('close', onRedisClose);
  deps.connection.on('ready', onRedisReady);

  return {
    workers,
    analytics,
    heartbeat,
    /** Waits for active jobs to finish; jobs still running at `graceMs` are handed back. */
    async close(graceMs: number) {
      deps.connection.off('ready', onRedisReady);
      deps.connection.off('close', onRedisClose);
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
      await heartbeat.stop();
    },
  };
}
