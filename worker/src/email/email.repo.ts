import type { Knex } from 'knex';
import type { DeliveryStatus } from '@guida/shared/delivery-status';
import type { GdprRequestType } from '@guida/shared/gdpr-rules';
import type { EmailKind } from '@guida/shared/jobs/email';

export interface EmailContext {
  id: number;
  kind: EmailKind;
  status: DeliveryStatus;
  attempts: number;
  lead_id: number | null;
  nome: string | null;
  email: string | null;
  lead_created_at: Date | null;
  token: string | null;
  expires_at: Date | null;
  data_request_id: number | null;
  /** The requester's address; null once erased. */
  request_email: string | null;
  request_type: GdprRequestType | null;
  request_notes: string | null;
}

/** An email row with what its text needs: the lead and its link, or the data request. */
export function loadEmailContext(db: Knex, emailMessageId: number) {
  return db('email_messages as m')
    .leftJoin('ebook_requests as l', 'l.id', 'm.lead_id')
    .leftJoin('download_tokens as t', 't.lead_id', 'm.lead_id')
    .leftJoin('gdpr_data_requests as r', 'r.id', 'm.data_request_id')
    .where('m.id', emailMessageId)
    .first<EmailContext | undefined>(
      'm.id',
      'm.kind',
      'm.status',
      'm.attempts',
      'm.lead_id',
      'l.nome',
      'l.email',
      'l.created_at as lead_created_at',
      't.token',
      't.expires_at',
      'm.data_request_id',
      'r.email as request_email',
      'r.request_type',
      'r.notes as request_notes',
    );
}

/**
 * Marks the email `sending` if it is still to be sent; false when another run of the job
 * claimed it first (the row lock makes the second claim wait, then find it taken), or it
 * was sent or given up meanwhile.
 */
export async function claimEmail(db: Knex, id: number, attempts: number) {
  const claimed = await db('email_messages')
    .where({ id })
    .whereIn('status', ['pending', 'retrying'])
    .update({ status: 'sending', attempts, updated_at: db.fn.now() })
    .returning('id');
  return claimed.length === 1;
}

export async function loadEmailStatus(db: Knex, id: number) {
  const row = await db('email_messages').where({ id }).first<{ status: DeliveryStatus } | undefined>('status');
  return row?.status;
}

export async function recordEmailAttempt(
  db: Knex,
  id: number,
  outcome: { status: DeliveryStatus; attempts: number; error?: string | null; messageId?: string },
) {
  await db('email_messages')
    .where({ id })
    .update({
      status: outcome.status,
      attempts: outcome.attempts,
      last_error: outcome.error ?? null,
      updated_at: db.fn.now(),
      ...(outcome.messageId ? { provider_message_id: outcome.messageId, sent_at: db.fn.now() } : {}),
    });
}
