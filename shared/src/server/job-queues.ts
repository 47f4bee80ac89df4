import { context, propagation } from '@opentelemetry/api';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import {
  JOB_RETENTION,
  jobTraceContext,
  QUEUE_NAMES,
  RETRY_BACKOFF_TYPE,
  type JobDefinition,
  type QueueName,
} from '../jobs/definition';
import { sweepAfterReconnectJob } from '../jobs/maintenance';
import type { Logger } from './logger';
import { withTimeout } from './with-timeout';

export interface JobQueuesOptions {
  connection: Redis;
  prefix: string;
  logger: Logger;
  /** An add that takes longer is abandoned (the sweeper adds it later). */
  addTimeoutMs?: number;
  /**
   * Refuse at once while Redis is disconnected instead of waiting for the timeout: for
   * the API, where a visitor is waiting.
   */
  failFast?: boolean;
}

export type JobQueues = ReturnType<typeof createJobQueues>;

/**
 * The job's data with the current trace context (`trace`) when a traced request or job
 * enqueues it; the data alone otherwise (tracing off: the propagator injects nothing).
 */
export function withTraceContext(data: unknown): unknown {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const trace = jobTraceContext.safeParse(carrier);
  return trace.success && typeof data === 'object' && data !== null ? { ...data, trace: trace.data } : data;
}

/** Producer side of every queue, shared by the API and the worker. */
export function createJobQueues({
  connection,
  prefix,
  logger,
  addTimeoutMs = 2000,
  failFast = false,
}: JobQueuesOptions) {
  const queues = Object.fromEntries(
    QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, { connection, prefix });
      queue.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'queue connection error'));
      return [name, queue];
    }),
  ) as Record<QueueName, Queue>;

  /**
   * Set when a job could not be added: its delivery is in Postgres with no job. The next
   * (re)connection, or the next add that works, asks a worker for a sweep without grace,
   * instead of leaving the delivery to the next periodic sweep.
   */
  let missedJobs = false;

  async function requestSweep() {
    await withTimeout(
      queues.maintenance.add(
        sweepAfterReconnectJob.name,
        {},
        {
          // Requests while a sweep waits join it; one made while a sweep runs queues one
          // more, so every request has a sweep that starts after it.
          deduplication: { id: sweepAfterReconnectJob.name, keepLastIfActive: true },
          removeOnComplete: 100,
          removeOnFail: 100,
        },
      ),
      addTimeoutMs,
      'Redis',
    );
  }

  const sweepForMissedJobs = () => {
    if (!missedJobs) return;
    missedJobs = false;
    requestSweep().catch((error: Error) => {
      missedJobs = true;
      logger.warn({ err: error.message }, 'could not ask for a sweep; asking again after the next add or connection');
    });
  };
  connection.on('ready', sweepForMissedJobs);

  async function adding<T>(add: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await add();
    } catch (error) {
      missedJobs = true;
      throw error;
    }
    sweepForMissedJobs();
    return result;
  }

  function ensureConnected() {
    if (failFast && connection.status !== 'ready') {
      throw new Error(`Redis is not connected (${connection.status})`);
    }
  }

  function jobOptions<S extends z.ZodType>(definition: JobDefinition<S>, data: z.output<S>) {
    return {
      jobId: definition.jobId(data),
      attempts: definition.attempts,
      backoff: { type: RETRY_BACKOFF_TYPE },
      ...JOB_RETENTION,
    };
  }

  async function enqueueMany<S extends z.ZodType>(definition: JobDefinition<S>, inputs: z.input<S>[]) {
    if (inputs.length === 0) return;
    const jobs = inputs.map((input) => {
      const data = definition.schema.parse(input);
      return { name: definition.name, data: withTraceContext(data), opts: jobOptions(definition, data) };
    });
    await adding(() => {
      ensureConnected();
      return withTimeout(queues[definition.queue].addBulk(jobs), addTimeoutMs * 5, 'Redis');
    });
  }

  return {
    queue: (name: QueueName) => queues[name],

    /** Validates the payload and adds the job; a job with the same id is left as it is. */
    async enqueue<S extends z.ZodType>(definition: JobDefinition<S>, input: z.input<S>) {
      const data = definition.schema.parse(input);
      await adding(() => {
        ensureConnected();
        return withTimeout(
          queues[definition.queue].add(definition.name, withTraceContext(data), jobOptions(definition, data)),
          addTimeoutMs,
          'Redis',
        );
      });
    },

    enqueueMany,

    /**
     * Like enqueueMany, for deliveries that may have been reopened since their job ran
     * (an admin's resend, or the sweeper after a resend that could not be enqueued). A
     * finished job keeps its id for a day (completed) or two weeks (failed), and while it
     * does, adding the id again does nothing: such a job is removed first. A job still
     * waiting, delayed or running is left alone (BullMQ does not remove a running job), so
     * a delivery never has two jobs at once.
     */
    async enqueueAgain<S extends z.ZodType>(definition: JobDefinition<S>, inputs: z.input<S>[]) {
      if (inputs.length === 0) return;
      const queue = queues[definition.queue];
      const jobIds = inputs.map((input) => definition.jobId(definition.schema.parse(input)));
      await adding(async () => {
        ensureConnected();
        const states = await withTimeout(
          Promise.all(jobIds.map((jobId) => queue.getJobState(jobId))),
          addTimeoutMs * 5,
          'Redis',
        );
        const finished = jobIds.filter((_, index) => states[index] === 'completed' || states[index] === 'failed');
        await Promise.all(finished.map((jobId) => queue.remove(jobId)));
      });
      await enqueueMany(definition, inputs);
    },

    /**
     * Asks a worker for a sweep without grace (`sweepAfterReconnectJob`), at once: for a
     * worker whose connection came back, since Redis may have lost jobs. One that fails
     * is asked again like a missed add.
     */
    requestSweep: () => adding(requestSweep),

    async close() {
      connection.off('ready', sweepForMissedJobs);
      await Promise.all(Object.values(queues).map((queue) => queue.close()));
    },
  };
}
