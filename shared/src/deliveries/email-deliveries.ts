import type { Knex } from 'knex';
import { sendEmailJob, type EmailKind } from '../jobs/email';
import type { JobQueues } from '../server/job-queues';
import type { Logger } from '../server/logger';
import { EMAIL_HAND_BACK_FROM, EMAIL_TRANSITIONS, type DeliveryStatus } from './delivery-statuses';
import {
  applyTransition,
  applyTransitionOrRefuse,
  claimRow,
  dueRows,
  isClaimable,
  isTakeOver,
  statusOf,
  type DueOptions,
} from './delivery-table';

/** email_messages: every write to it but the retention notices' batch insert (worker/src/maintenance). */

const TABLE = 'email_messages';

export type EmailSubject = { leadId: number } | { dataRequestId: number };

/**
 * Writes the row of an email (one per lead or data request and kind), in the caller's
 * transaction or not; its id, or null when this email was already written.
 */
export async function insertEmail(db: Knex, subject: EmailSubject, kind: EmailKind): Promise<number | null> {
  const [row] =
    'leadId' in subject
      ? await db(TABLE)
          .insert({ lead_id: subject.leadId, kind })
          .onConflict(['lead_id', 'kind'])
          .ignore()
          .returning<{ id: number }[]>('id')
      : await db(TABLE)
          .insert({ data_request_id: subject.dataRequestId, kind })
          .onConflict(['data_request_id', 'kind'])
          .ignore()
          .returning<{ id: number }[]>('id');
  return row?.id ?? null;
}

/**
 * Writes the email's row, then enqueues its job. The row comes first, so a Redis outage
 * only delays the email: the sweeper enqueues unsent rows. Returns the row id, or null
 * when this email was already scheduled. Used for the guide link when the SMS failed,
 * and for the messages about a data request.
 */
export async function scheduleEmail(
  deps: { db: Knex; queues: JobQueues; logger: Logger },
  subject: EmailSubject,
  kind: EmailKind,
): Promise<number | null> {
  const id = await insertEmail(deps.db, subject, kind);
  if (id === null) return null;
  try {
    await deps.queues.enqueue(sendEmailJob, { emailMessageId: id });
  } catch (error) {
    deps.logger.warn(
      { ...subject, kind, emailMessageId: id, err: (error as Error).message },
      'email job not enqueued; the sweeper will add it',
    );
  }
  return id;
}

export const emailStatus = (db: Knex, id: number) => statusOf<DeliveryStatus>(db, TABLE, id);

/** True when a worker may try the email: claim it, or take over a claim. */
export const emailIsClaimable = (status: DeliveryStatus) => isClaimable(EMAIL_TRANSITIONS, status);

/**
 * Takes the email (`sending`) before composing and sending it; null when another run
 * took it first, or it was sent or given up meanwhile. A claim older than
 * `claimTimeoutMs` was left by a worker that stopped mid-send and is taken over.
 */
export const claimEmail = (
  db: Knex,
  email: { id: number; status: DeliveryStatus },
  attempts: number,
  claimTimeoutMs: number,
) => claimRow(db, TABLE, EMAIL_TRANSITIONS, email, { attempts }, claimTimeoutMs);

/** Composing failed: the claim goes back to what it was (status and attempts) for the next run. */
export const handBackEmailClaim = (
  db: Knex,
  id: number,
  previous: { status: DeliveryStatus; attempts: number },
  error: string,
) =>
  applyTransition(db, TABLE, id, { from: EMAIL_HAND_BACK_FROM, to: previous.status }, {
    attempts: previous.attempts,
    last_error: error,
  });

export const recordEmailDelivered = (db: Knex, id: number, sent: { attempts: number; messageId: string }) =>
  applyTransition(db, TABLE, id, EMAIL_TRANSITIONS.recordDelivered, {
    attempts: sent.attempts,
    last_error: null,
    provider_message_id: sent.messageId,
    sent_at: db.fn.now(),
  });

/** The SMTP server refused or could not be reached: retried later, or given up (`final`). */
export const recordEmailFailure = (db: Knex, id: number, failure: { final: boolean; attempts: number; error: string }) =>
  applyTransition(db, TABLE, id, failure.final ? EMAIL_TRANSITIONS.recordFailure : EMAIL_TRANSITIONS.recordRetry, {
    attempts: failure.attempts,
    last_error: failure.error,
  });

/** Claimed, then found to have nothing to say (its lead or request is gone). */
export const skipEmail = (db: Knex, id: number, reason: string) =>
  applyTransition(db, TABLE, id, EMAIL_TRANSITIONS.skip, { attempts: 0, last_error: reason });

/** The admin's retry of a failed job: the email must have failed (else DeliveryTransitionError). */
export const retryFailedEmail = (db: Knex, id: number) =>
  applyTransitionOrRefuse(db, 'email', 'retry', TABLE, id, EMAIL_TRANSITIONS.retryFailed);

/** Error texts may quote the address: erased with the data requests they belong to. */
export function forgetEmailErrors(trx: Knex.Transaction, dataRequestIds: Knex.QueryBuilder | number[]) {
  return trx(TABLE).whereIn('data_request_id', dataRequestIds).update({ last_error: null });
}

/** Emails a worker should run now (see dueRows). */
export async function listEmailDue(db: Knex, options: DueOptions) {
  const rows = await dueRows(db, TABLE, EMAIL_TRANSITIONS.claim.from, EMAIL_TRANSITIONS.takeOver.from, options).select<
    { id: number; status: DeliveryStatus }[]
  >('id', 'status');
  return rows.map((row) => ({
    emailMessageId: row.id,
    abandoned: isTakeOver(EMAIL_TRANSITIONS, row.status),
  }));
}
