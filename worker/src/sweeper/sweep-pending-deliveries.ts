import type { Knex } from 'knex';
import { deliverToCrmJob, type CrmEvent } from '@guida/shared/jobs/crm';
import { sendEmailJob } from '@guida/shared/jobs/email';
import { GDPR_JOB_FOR_REQUEST_TYPE } from '@guida/shared/jobs/gdpr';
import type { GdprRequestType } from '@guida/shared/gdpr-rules';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';

export interface SweepDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  /** Rows younger than this are left to the API, which enqueues right after the insert. */
  graceMs: number;
  batchSize?: number;
}

const UNSENT = ['pending', 'retrying'];

/**
 * An SMS, CRM delivery or email claimed (`sending`) this long ago was left by a worker
 * that stopped mid-send: a send takes seconds (the provider and CRM timeouts; the SMTP
 * client gives up on a silent server after a minute, worker/src/email/mailer.ts).
 */
const ABANDONED_CLAIM_MINUTES = 15;
const ABANDONED_CLAIM_REASON = `still sending after ${ABANDONED_CLAIM_MINUTES} minutes (the worker stopped mid-send); trying again`;

/**
 * Postgres is the record of what must still be delivered; Redis only schedules it. Every
 * unsent delivery is (re-)added with its deterministic job id: a job that is still to run
 * is left alone, one that never reached Redis (or was lost with it) is created, and a
 * finished one (the delivery was reopened since) is replaced. Claims abandoned by a
 * stopped worker go back to `retrying` and are added the same way. Also closes expired
 * 24-hour phone windows, so no phone number stays longer than needed.
 */
export function createSweepPendingDeliveries({ db, queues, logger, graceMs, batchSize = 1000 }: SweepDeps) {
  const unsent = (table: string) =>
    db(table)
      .whereIn('status', UNSENT)
      .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
      .orderBy('updated_at')
      .limit(batchSize);
  const abandonedClaims = (table: string) =>
    db(table)
      .select('id')
      .where({ status: 'sending' })
      .where('updated_at', '<', db.raw('now() - make_interval(mins => ?)', [ABANDONED_CLAIM_MINUTES]))
      .orderBy('updated_at')
      .limit(batchSize)
      .forUpdate()
      .skipLocked();

  // Back to retrying, after the unsent rows were read so that a released one is enqueued
  // once. The stopped worker may have handed it to the provider, the CRM or the SMTP
  // server before it stopped, so it may now go twice: at least once beats never.
  const releaseAbandonedSmsClaims = async () =>
    (
      await db.raw<{ rows: { lead_id: number }[] }>(
        `
        WITH released AS (
          UPDATE sms_messages SET status = 'retrying', updated_at = now(), error_code = NULL, error_message = ?
          WHERE id IN ?
          RETURNING id, lead_id
        ), logged AS (
          INSERT INTO sms_events (sms_message_id, status, error_message)
          SELECT id, 'retrying', ? FROM released
        )
        SELECT lead_id FROM released
        `,
        [ABANDONED_CLAIM_REASON, abandonedClaims('sms_messages'), ABANDONED_CLAIM_REASON],
      )
    ).rows;
  const releaseAbandonedCrmClaims = async () =>
    (
      await db.raw<{ rows: { id: number; lead_id: number; event: CrmEvent }[] }>(
        `
        UPDATE crm_deliveries SET status = 'retrying', updated_at = now(), last_error = ?
        WHERE id IN ?
        RETURNING id, coalesce(lead_id, subject_lead_id) AS lead_id, event
        `,
        [ABANDONED_CLAIM_REASON, abandonedClaims('crm_deliveries')],
      )
    ).rows;
  const releaseAbandonedEmailClaims = async () =>
    (
      await db.raw<{ rows: { id: number }[] }>(
        `
        UPDATE email_messages SET status = 'retrying', updated_at = now(), last_error = ?
        WHERE id IN ?
        RETURNING id
        `,
        [ABANDONED_CLAIM_REASON, abandonedClaims('email_messages')],
      )
    ).rows;

  return async function sweepPendingDeliveries() {
    const unsentSms = await unsent('sms_messages').select<{ lead_id: number }[]>('lead_id');
    const releasedSms = await releaseAbandonedSmsClaims();
    const sms = [...unsentSms, ...releasedSms];
    await queues.enqueueAgain(sendGuideSmsJob, sms.map((row) => ({ leadId: row.lead_id })));

    // An erased lead's lead.deleted event names it in subject_lead_id (lead_id is null).
    const unsentCrm = await unsent('crm_deliveries')
      .whereRaw('coalesce(lead_id, subject_lead_id) IS NOT NULL')
      .select<{ id: number; lead_id: number; event: CrmEvent }[]>(
        'id',
        db.raw('coalesce(lead_id, subject_lead_id) AS lead_id'),
        'event',
      );
    const releasedCrm = await releaseAbandonedCrmClaims();
    const crm = [...unsentCrm, ...releasedCrm];
    await queues.enqueueAgain(
      deliverToCrmJob,
      crm.map((row) => ({ deliveryId: row.id, leadId: row.lead_id, event: row.event })),
    );

    const unsentEmail = await unsent('email_messages').select<{ id: number }[]>('id');
    const releasedEmail = await releaseAbandonedEmailClaims();
    const email = [...unsentEmail, ...releasedEmail];
    await queues.enqueueAgain(sendEmailJob, email.map((row) => ({ emailMessageId: row.id })));
    const releasedClaims = releasedSms.length + releasedCrm.length + releasedEmail.length;
    if (releasedClaims > 0) {
      logger.warn(
        {
          smsLeadIds: releasedSms.map((row) => row.lead_id),
          crmDeliveryIds: releasedCrm.map((row) => row.id),
          emailMessageIds: releasedEmail.map((row) => row.id),
        },
        ABANDONED_CLAIM_REASON,
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
      sms: sms.length,
      crm: crm.length,
      email: email.length,
      gdpr: gdpr.length,
      abandonedClaims: releasedClaims,
      closedWindows,
    };
    if (sms.length + crm.length + email.length + gdpr.length > 0) logger.info(result, 'swept unsent deliveries');
    return result;
  };
}
