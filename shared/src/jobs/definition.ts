import { z } from 'zod';

/**
 * What producers and consumers agree on for one kind of job. Payloads carry ids only,
 * never personal data: the processor reads the rest from Postgres.
 */
export interface JobDefinition<S extends z.ZodType> {
  queue: QueueName;
  name: string;
  schema: S;
  /** Deterministic job id: adding the same job twice is a no-op in BullMQ. */
  jobId(data: z.output<S>): string;
  attempts: number;
}

export const QUEUE_NAMES = ['sms', 'crm', 'email', 'gdpr', 'maintenance', 'alerts', 'sms-price', 'conversions'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Every retried job uses this backoff; the worker's strategy reads per-queue base delays. */
export const RETRY_BACKOFF_TYPE = 'jittered-exponential';

/** Failed jobs stay visible for two weeks (admins retry them); completed ones for a day. */
export const JOB_RETENTION = {
  removeOnComplete: { age: 24 * 3600, count: 50_000 },
  removeOnFail: { age: 14 * 24 * 3600 },
} as const;

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>) {
  return definition;
}

/**
 * The W3C trace context of whatever enqueued a job (an API request), carried in its data
 * as `trace` when tracing is on, so the worker's spans continue the request's trace
 * (decision 057). Ids and flags only: no personal data.
 */
export const jobTraceContext = z.object({
  traceparent: z.string().regex(/^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/),
  tracestate: z.string().max(512).optional(),
});
export type JobTraceContext = z.infer<typeof jobTraceContext>;
