import type { Processor } from 'bullmq';
import type { Knex } from 'knex';
import type { JobDefinition, QueueName } from '@guida/shared/jobs/definition';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { Redis } from '@guida/shared/server/redis';
import type { ClaimTimeouts } from './claim-timeouts';
import type { WorkerConfig } from './config';
import type { WorkerMetrics } from './metrics';
import type { Mailer } from '@guida/shared/server/mailer';
import type { SmsProvider } from './providers/sms-provider';

/** What every queue's processor may use: connections and providers chosen by the configuration. */
export interface WorkerDeps {
  config: WorkerConfig;
  logger: Logger;
  db: Knex;
  /** Connection for the workers' blocking commands (maxRetriesPerRequest: null). */
  connection: Redis;
  queues: JobQueues;
  smsProvider: SmsProvider;
  mailer: Mailer;
  metrics: WorkerMetrics;
  /** The clock the SMS budgets are counted by (tests move it past a budget window). */
  now(): Date;
}

export interface ProcessorDeps extends WorkerDeps {
  /** How old a claim must be before another run takes it over, per delivery kind (decision 021). */
  claimTimeouts: ClaimTimeouts;
}

/**
 * One queue of the worker, its settings side by side. A job's attempts travel with the
 * job (its definition in shared/src/jobs, set by whoever enqueues it); the delay between
 * attempts is the queue's: exponential from `retryBaseMs`, with jitter.
 */
export interface QueueDeclaration {
  queue: QueueName;
  /** Jobs one worker process runs at once. */
  concurrency(config: WorkerConfig): number;
  /** At most `max` jobs per `duration` ms across every worker process (kept in Redis). */
  limiter?(config: WorkerConfig): { max: number; duration: number };
  retryBaseMs(config: WorkerConfig): number;
  processor(deps: ProcessorDeps): Processor;
  /** Jobs run every `everyMs`, once per interval however many worker processes run. */
  schedules?(config: WorkerConfig): { job: Pick<JobDefinition<never>, 'name'>; everyMs: number }[];
}
