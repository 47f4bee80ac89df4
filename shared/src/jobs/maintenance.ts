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
