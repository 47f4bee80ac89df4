import { Router } from 'express';
import type { Knex } from 'knex';
import { retryFailedConversionUpload } from '@guida/shared/deliveries/conversion-uploads';
import { retryFailedCrmDelivery } from '@guida/shared/deliveries/crm-deliveries';
import { DeliveryTransitionError } from '@guida/shared/deliveries/delivery-statuses';
import { retryFailedEmail } from '@guida/shared/deliveries/email-deliveries';
import { reopenSms } from '@guida/shared/deliveries/sms-deliveries';
import { QUEUE_NAMES, type QueueName } from '@guida/shared/jobs/definition';
import { adminMessages } from '@guida/shared/messages';
import type { FailedJobs } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { AppError, notFound } from '../../errors';
import { auditAdminAction } from '../audit-log';
import { queueStats } from '@guida/shared/server/queue-stats';

const FAILED_JOBS_SHOWN = 50;

const queuesUnavailable = () => new AppError(503, 'queues_unavailable', adminMessages.queueUnavailable);

function queueName(raw: string | undefined): QueueName {
  const name = QUEUE_NAMES.find((known) => known === raw);
  if (!name) throw notFound(adminMessages.queueNotFound);
  return name;
}

/** The payload field naming the delivery row of a queue's job (the queues with one). */
const DELIVERY_ID_FIELD: Partial<Record<QueueName, string>> = {
  sms: 'leadId',
  crm: 'deliveryId',
  email: 'emailMessageId',
  conversions: 'uploadId',
};

/**
 * Before a failed job runs again its delivery must be "to send" again, or the processor
 * (which re-reads it) would skip it as done. A delivery that is on its way or already
 * done is refused (DeliveryTransitionError: 409), not re-run.
 */
async function reopenDeliveryOf(db: Knex, queue: QueueName, data: Record<string, unknown>, linkTtlDays: number) {
  const field = DELIVERY_ID_FIELD[queue];
  const id = field === undefined ? Number.NaN : Number(data[field]);
  if (!Number.isInteger(id)) return;
  if (queue === 'sms' && (await reopenSms(db, id, linkTtlDays, 'admin-retry')) === null) {
    throw new DeliveryTransitionError('sms', 'retry', null);
  }
  if (queue === 'crm') await retryFailedCrmDelivery(db, id);
  if (queue === 'email') await retryFailedEmail(db, id);
  if (queue === 'conversions') await retryFailedConversionUpload(db, id);
}

/** Queue figures for the live dashboard, failed jobs with their reason, and retrying one. */
export function adminQueuesRouter(deps: ApiDeps) {
  const router = Router();
  const guarded = async <T>(operation: () => Promise<T>) => {
    if (deps.redis.status !== 'ready') throw queuesUnavailable();
    try {
      return await operation();
    } catch (error) {
      if (error instanceof AppError) throw error;
      deps.logger.warn({ err: (error as Error).message }, 'queue read failed');
      throw queuesUnavailable();
    }
  };

  router.get('/queues', async (_req, res) => {
    res.json(
      await guarded(() =>
        queueStats({
          db: deps.db,
          queues: deps.queues,
          redis: deps.redis,
          prefix: deps.config.REDIS_KEY_PREFIX,
          smsRatePerSecond: deps.config.SMS_RATE_PER_SECOND,
        }),
      ),
    );
  });

  router.get('/queues/:name/failed', async (req, res) => {
    const name = queueName(req.params.name);
    const jobs = await guarded(() => deps.queues.queue(name).getFailed(0, FAILED_JOBS_SHOWN - 1));
    const answer: FailedJobs = {
      jobs: jobs
        .filter((job) => job?.id)
        .map((job) => ({
          id: job.id!,
          name: job.name,
          failedReason: job.failedReason || null,
          attemptsMade: job.attemptsMade,
          failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
          // Payloads hold ids only (see shared/src/jobs/definition.ts).
          data: job.data as Record<string, unknown>,
        })),
    };
    res.json(answer);
  });

  router.post('/queues/:name/jobs/:id/retry', async (req, res) => {
    const name = queueName(req.params.name);
    const job = await guarded(() => deps.queues.queue(name).getJob(req.params.id));
    if (!job || !(await guarded(() => job.isFailed()))) throw notFound(adminMessages.jobNotFound);
    await reopenDeliveryOf(deps.db, name, job.data as Record<string, unknown>, deps.config.GUIDE_LINK_TTL_DAYS);
    await guarded(() => job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }));
    await auditAdminAction(deps.db, req, {
      action: 'retry_job',
      target: { type: 'job', id: `${name}:${job.id}` },
      details: { queue: name, name: job.name },
    });
    res.status(202).json({ message: adminMessages.jobRetried });
  });

  return router;
}
