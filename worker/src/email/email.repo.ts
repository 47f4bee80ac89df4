import type { Knex } from 'knex';
import type { DeliveryStatus } from '@guida/shared/delivery-status';
import type { EmailKind } from '@guida/shared/jobs/email';

export interface EmailContext {
  id: number;
  kind: EmailKind;
  status: DeliveryStatus;
  lead_id: number | null;
  nome: string | null;
  email: string | null;
  token: string | null;
  expires_at: Date | null;
}

export function loadEmailContext(db: Knex, emailMessageId: number) {
  return db('email_messages as m')
    .leftJoin('ebook_requests as l', 'l.id', 'm.lead_id')
    .leftJoin('download_tokens as t', 't.lead_id', 'm.lead_id')
    .where('m.id', emailMessageId)
    .first<EmailContext | undefined>(
      'm.id',
      'm.kind',
      'm.status',
      'm.lead_id',
      'l.nome',
      'l.email',
      't.token',
      't.expires_at',
    );
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
