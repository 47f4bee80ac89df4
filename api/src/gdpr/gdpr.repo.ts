import type { Knex } from 'knex';
import { insertEmail } from '@guida/shared/deliveries/email-deliveries';
import { GDPR_REQUEST_UNCONFIRMED, type GdprRequestStatus, type GdprRequestType } from '@guida/shared/gdpr-rules';
import type { GdprRequest } from '@guida/shared/schemas/gdpr';
import { emailHash } from '@guida/shared/server/personal-data-hash';

export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * Stores a pending request and the row of its confirmation email in one transaction;
 * the caller enqueues the email once committed.
 */
export async function insertDataRequest(db: Knex, request: GdprRequest, origin: RequestOrigin) {
  return db.transaction(async (trx) => {
    const [row] = await trx('gdpr_data_requests')
      .insert({
        email: request.email,
        email_hash: emailHash(request.email),
        request_type: request.requestType,
        request_data: request.details ? { details: request.details } : null,
        ip_address: origin.ipAddress,
        user_agent: origin.userAgent,
      })
      .returning<{ id: number }[]>('id');
    const emailMessageId = await insertEmail(trx, { dataRequestId: row!.id }, 'gdpr-confirm');
    return { dataRequestId: row!.id, emailMessageId: emailMessageId! };
  });
}

export interface ConfirmableRequest {
  id: number;
  request_type: GdprRequestType;
  status: GdprRequestStatus;
  confirm_expires_at: Date | null;
}

export function findRequestByConfirmToken(db: Knex, tokenHash: string) {
  return db('gdpr_data_requests')
    .where({ confirm_token_hash: tokenHash })
    .first<ConfirmableRequest | undefined>('id', 'request_type', 'status', 'confirm_expires_at');
}

/** pending → confirmed, while the link is valid; false when it was not pending any more. */
export async function confirmDataRequest(db: Knex, id: number) {
  const updated = await db('gdpr_data_requests')
    .where({ id, status: GDPR_REQUEST_UNCONFIRMED })
    .where('confirm_expires_at', '>', db.fn.now())
    .update({ status: 'confirmed', confirmed_at: db.fn.now() });
  return updated > 0;
}

export interface ExportRow {
  id: number;
  expires_at: Date | null;
  body: string;
}

export function findExportByToken(db: Knex, tokenHash: string, format: 'json' | 'csv') {
  return db('gdpr_exports')
    .where({ token_hash: tokenHash })
    .first<ExportRow | undefined>('id', 'expires_at', `${format}_body as body`);
}

export async function recordExportDownload(db: Knex, id: number) {
  await db('gdpr_exports')
    .where({ id })
    .update({ download_count: db.raw('download_count + 1'), last_downloaded_at: db.fn.now() });
}
