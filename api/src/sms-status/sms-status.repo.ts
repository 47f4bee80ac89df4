import type { Knex } from 'knex';
import { SMS_STATUSES, smsStatusRank, type SmsStatus } from '@guida/shared/delivery-status';

const RANK_OF_CURRENT_STATUS = `CASE status ${SMS_STATUSES.map(
  (status) => `WHEN '${status}' THEN ${smsStatusRank(status)}`,
).join(' ')} END`;

export interface StatusUpdate {
  providerMessageId: string;
  status: SmsStatus;
  providerStatus: string;
  errorCode: string | null;
}

/**
 * Moves the SMS forward to `status` and appends it to its timeline. Repeated, late or
 * out-of-order callbacks (a status not above the current one) change nothing.
 * Returns the lead id when the SMS changed, else null.
 */
export async function applyStatusUpdate(db: Knex, update: StatusUpdate): Promise<number | null> {
  return db.transaction(async (trx) => {
    const [row] = await trx('sms_messages')
      .where({ provider_message_id: update.providerMessageId })
      .andWhereRaw(`${RANK_OF_CURRENT_STATUS} < ?`, [smsStatusRank(update.status)])
      .update({
        status: update.status,
        updated_at: trx.fn.now(),
        error_code: update.errorCode ?? trx.raw('error_code'),
        delivered_at: update.status === 'delivered' ? trx.fn.now() : trx.raw('delivered_at'),
        failed_at: update.status === 'delivered' || update.status === 'sent' ? trx.raw('failed_at') : trx.fn.now(),
      })
      .returning<{ id: number; lead_id: number }[]>(['id', 'lead_id']);
    if (!row) return null;
    await trx('sms_events').insert({
      sms_message_id: row.id,
      status: update.status,
      provider_status: update.providerStatus,
      error_code: update.errorCode,
    });
    return row.lead_id;
  });
}
