import { z } from 'zod';
import { defineJob } from './definition';

/**
 * Re-enqueues deliveries that are still pending in Postgres but whose job never reached
 * Redis (Redis was down when the lead arrived). Runs on a BullMQ job scheduler, so one
 * run per interval however many workers there are.
 */
export const sweepPendingDeliveriesJob = defineJob({
  queue: 'maintenance',
  name: 'sweep-pending-deliveries',
  schema: z.object({}),
  jobId: () => 'sweep-pending-deliveries',
  attempts: 1,
});

/**
 * The same sweep without the grace period, at once: asked for by a worker whose
 * connection to Redis comes back (Redis may have lost its jobs) and by any process that
 * could not add a job, once it can (decision 023). Added by `JobQueues.requestSweep`,
 * deduplicated: at most one waits besides the one running.
 */
export const sweepAfterReconnectJob = { queue: 'maintenance', name: 'sweep-after-reconnect' } as const;

/**
 * Retention: notifies leads that are about to reach RETENTION_MONTHS, erases those past
 * it, and deletes analytics rows older than ANALYTICS_RETENTION_MONTHS in small batches.
 * Runs on a job scheduler like the sweep.
 */
export const applyRetentionJob = defineJob({
  queue: 'maintenance',
  name: 'apply-retention',
  schema: z.object({}),
  jobId: () => 'apply-retention',
  attempts: 1,
});

/**
 * Aggregates the funnel of closed Italian days into the daily rollup the admin reports
 * read. Runs on a job scheduler like the sweep.
 */
export const rollUpFunnelJob = defineJob({
  queue: 'maintenance',
  name: 'roll-up-funnel',
  schema: z.object({}),
  jobId: () => 'roll-up-funnel',
  attempts: 1,
});
