import type { Knex } from 'knex';
import { listCrmDue } from '@guida/shared/deliveries/crm-deliveries';
import { listEmailDue, scheduleEmail } from '@guida/shared/deliveries/email-deliveries';
import { heldLeadsToEmail, listSmsDue, resumeHeldSms, type SmsBudgetCheck } from '@guida/shared/deliveries/sms-deliveries';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { GUIDE_LINK_EMAIL, sendEmailJob } from '@guida/shared/jobs/email';
import { GDPR_JOB_FOR_REQUEST_TYPE } from '@guida/shared/jobs/gdpr';
import type { GdprRequestType } from '@guida/shared/gdpr-rules';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { ClaimTimeouts } from '../claim-timeouts';

export interface SweepDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  /** Rows younger than this are left to the API, which enqueues right after the insert. */
  graceMs: number;
  /** Per kind, how old a claim must be to count as left by a worker that stopped mid-send. */
  claimTimeouts: ClaimTimeouts;
  /** Held SMS go back to pending, oldest first, as far as these budgets allow again. */
  smsBudget: SmsBudgetCheck;
  /** A held SMS's link goes by email after this many minutes (SMS_HELD_EMAIL_AFTER_MINUTES). */
  heldEmailAfterMinutes: number;
  batchSize?: number;
}

/**
 * Postgres is the record of what must still be delivered; Redis only schedules it. Every
 * delivery still to send is (re-)added with its deterministic job id: a job that is still
 * to run is left alone, one that never reached Redis (or was lost with it) is created, and
 * a finished one (the delivery was reopened since) is replaced. Claims older than their
 * claim timeout (a worker stopped mid-send) are enqueued the same way: their job takes the
 * claim over (decision 021). Also closes expired 24-hour phone windows, so no phone number
 * stays longer than needed. Held SMS the SMS budgets allow again are resumed, oldest
 * first (decision 025): the circuit breaker closes by itself when its window passes; the
 * link of an SMS held longer than `heldEmailAfterMinutes` goes by email.
 */
export function createSweepPendingDeliveries({
  db,
  queues,
  logger,
  graceMs,
  claimTimeouts,
  smsBudget,
  heldEmailAfterMinutes,
  batchSize = 1000,
}: SweepDeps) {
  const due = (claimTimeoutMs: number) => ({ graceMs, claimTimeoutMs, limit: batchSize });

  return async function sweepPendingDeliveries() {
    const resumed = await resumeHeldSms(db, smsBudget, batchSize);
    await queues.enqueueAgain(sendGuideSmsJob, resumed.map((leadId) => ({ leadId })));
    const heldTooLong = await heldLeadsToEmail(db, heldEmailAfterMinutes, batchSize);
    for (const leadId of heldTooLong) await scheduleEmail({ db, queues, logger }, { leadId }, GUIDE_LINK_EMAIL);
    const sms = await listSmsDue(db, due(claimTimeouts.sms));
    await queues.enqueueAgain(sendGuideSmsJob, sms.map(({ leadId }) => ({ leadId })));
    const crm = await listCrmDue(db, due(claimTimeouts.crm));
    await queues.enqueueAgain(deliverToCrmJob, crm.map(({ deliveryId, leadId, event }) => ({ deliveryId, leadId, event })));
    const email = await listEmailDue(db, due(claimTimeouts.email));
    await queues.enqueueAgain(sendEmailJob, email.map(({ emailMessageId }) => ({ emailMessageId })));

    const abandoned = (rows: { abandoned: boolean }[]) => rows.filter((row) => row.abandoned).length;
    const abandonedClaims = abandoned(sms) + abandoned(crm) + abandoned(email);
    if (abandonedClaims > 0) {
      logger.warn(
        {
          smsLeadIds: sms.filter((row) => row.abandoned).map((row) => row.leadId),
          crmDeliveryIds: crm.filter((row) => row.abandoned).map((row) => row.deliveryId),
          emailMessageIds: email.filter((row) => row.abandoned).map((row) => row.emailMessageId),
        },
        'claims left by a stopped worker: enqueued to be taken over',
      );
    }

    // Data requests an admin accepted whose processing job never reached Redis.
    const gdpr = await db('gdpr_data_requests')
      .where({ status: 'processing' })
      .where('processed_at', '<', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
      .orderBy('processed_at')
      .limit(batchSize)
      .select<{ id: number; request_type: GdprRequestType }[]>('id', 'request_type');
    for (const row of gdpr) {
      await queues.enqueue(GDPR_JOB_FOR_REQUEST_TYPE[row.request_type], { dataRequestId: row.id });
    }

    const closedWindows = await db('recent_phone_requests')
      .whereIn(
        'telefono',
        // In phone order and skipping locked rows, like the lead insert claims them, so
        // the two never deadlock.
        db('recent_phone_requests')
          .select('telefono')
          .where('requested_at', '<', db.raw("now() - interval '24 hours'"))
          .orderBy('telefono')
          .limit(batchSize)
          .forUpdate()
          .skipLocked(),
      )
      .delete();

    const result = {
      resumedSms: resumed.length,
      heldLinksEmailed: heldTooLong.length,
      sms: sms.length,
      crm: crm.length,
      email: email.length,
      gdpr: gdpr.length,
      abandonedClaims,
      closedWindows,
    };
    if (resumed.length + heldTooLong.length + sms.length + crm.length + email.length + gdpr.length > 0) {
      logger.info(result, 'swept unsent deliveries');
    }
    return result;
  };
}
