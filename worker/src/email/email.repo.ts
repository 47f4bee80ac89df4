import type { Knex } from 'knex';
import type { DeliveryStatus, SmsStatus } from '@guida/shared/deliveries/delivery-statuses';
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
  /** SHA-256 of the guide link's token (decision 029). */
  token_hash: string | null;
  expires_at: Date | null;
  /** The lead's SMS: held by a budget when its link goes by email before it. */
  sms_status: SmsStatus | null;
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
    .leftJoin('sms_messages as s', 's.lead_id', 'm.lead_id')
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
      't.token_hash',
      't.expires_at',
      's.status as sms_status',
      'm.data_request_id',
      'r.email as request_email',
      'r.request_type',
      'r.notes as request_notes',
    );
}
