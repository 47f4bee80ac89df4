import { UnrecoverableError, type Job } from 'bullmq';
import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import {
  applyRetentionJob,
  rollUpFunnelJob,
  sweepAfterReconnectJob,
  sweepPendingDeliveriesJob,
} from '@guida/shared/jobs/maintenance';
import type { QueueDeclaration } from '../queue-declaration';
import { createApplyRetention } from './apply-retention';
import { createRollUpFunnel } from './roll-up-funnel';
import { createSweepPendingDeliveries } from './sweep-pending-deliveries';

/** Days close at midnight; an hourly run keeps the rollup at most an hour behind. */
const FUNNEL_ROLLUP_INTERVAL_MS = 3600 * 1000;

/**
 * Housekeeping on job schedulers: the sweep of deliveries still to send, retention, and
 * the funnel rollup; and the sweep without grace that processes ask for after a Redis
 * outage (`JobQueues.requestSweep`). One at a time; a run that fails is simply run again
 * at its next interval (one attempt each).
 */
export const maintenanceQueue: QueueDeclaration = {
  queue: 'maintenance',
  concurrency: () => 1,
  retryBaseMs: (config) => config.SWEEP_INTERVAL_MS,
  schedules: (config) => [
    { job: sweepPendingDeliveriesJob, everyMs: config.SWEEP_INTERVAL_MS },
    { job: applyRetentionJob, everyMs: config.RETENTION_INTERVAL_MS },
    { job: rollUpFunnelJob, everyMs: FUNNEL_ROLLUP_INTERVAL_MS },
  ],
  processor: ({ config, db, queues, logger, claimTimeouts, now, connection }) => {
    const smsBudget = { limits: smsBudgetLimits(config), now };
    const run: Record<string, () => Promise<unknown>> = {
      [sweepPendingDeliveriesJob.name]: createSweepPendingDeliveries({
        db,
        queues,
        logger,
        graceMs: config.SWEEP_GRACE_MS,
        claimTimeouts,
        smsBudget,
        heldEmailAfterMinutes: config.SMS_HELD_EMAIL_AFTER_MINUTES,
      }),
      // After an outage the rows younger than the grace are the very ones whose jobs the
      // API could not add. The grace only spares a periodic sweep from re-adding jobs the
      // API is adding at that moment, harmless anyway (same job ids; the claim, decision 019).
      [sweepAfterReconnectJob.name]: createSweepPendingDeliveries({
        db,
        queues,
        logger,
        graceMs: 0,
        claimTimeouts,
        smsBudget,
        heldEmailAfterMinutes: config.SMS_HELD_EMAIL_AFTER_MINUTES,
      }),
      [applyRetentionJob.name]: createApplyRetention({
        db,
        queues,
        logger,
        redis: connection,
        redisKeyPrefix: config.REDIS_KEY_PREFIX,
        retentionMonths: config.RETENTION_MONTHS,
        noticeDays: config.RETENTION_NOTICE_DAYS,
        analyticsRetentionMonths: config.ANALYTICS_RETENTION_MONTHS,
      }),
      [rollUpFunnelJob.name]: createRollUpFunnel({ db, logger }),
    };
    return async (job: Job) => {
      const task = run[job.name];
      if (!task) throw new UnrecoverableError(`unknown maintenance job ${job.name}`);
      return task();
    };
  },
};
