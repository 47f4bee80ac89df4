import type { Knex } from 'knex';
import { SMS_DELIVERED, SMS_FAILED_STATUSES, type SmsStatus } from './delivery-statuses';
import { sqlList } from './delivery-table';

/**
 * The price of an SMS (decision 060): every write to sms_messages' price columns, apart
 * from the resend, which opens the lookup again (reopenSms). `price_fetched_at` set means
 * the lookup ended: with a price, or given up without one.
 */

/** Final statuses: Twilio bills the SMS and reports its price some time after one of them. */
export const SMS_PRICED_STATUSES: readonly SmsStatus[] = [SMS_DELIVERED, ...SMS_FAILED_STATUSES];

/** Only SMS handed to Twilio have a price; the outbox provider's cost nothing. */
export const PRICED_PROVIDER = 'twilio';

/** A price as Twilio reports it: a decimal string, negative for a cost ("-0.07400"). */
export interface ReportedPrice {
  price: string;
  /** ISO 4217 in capitals ("EUR"). */
  unit: string;
}

/** The SMS Twilio knows as `messageSid`, and whether its price lookup is still open. */
export async function smsPriceLookup(db: Knex, messageSid: string) {
  const row = await db('sms_messages')
    .where({ provider_message_id: messageSid })
    .first<{ id: number; lead_id: number; price_fetched_at: Date | null } | undefined>('id', 'lead_id', 'price_fetched_at');
  return row ? { smsId: row.id, leadId: row.lead_id, open: row.price_fetched_at === null } : null;
}

/**
 * Stores the price of the message (its absolute value), once: only while the lookup of
 * that message is open. A resend's price is added to what the lead's earlier SMS cost (in
 * the same currency: an account bills in one); false when there was nothing to store.
 */
export async function recordSmsPrice(db: Knex, messageSid: string, reported: ReportedPrice) {
  const { rowCount } = await db.raw<{ rowCount: number }>(
    `UPDATE sms_messages SET
       price = CASE WHEN price_unit IS NULL OR price_unit = :unit THEN coalesce(price, 0) ELSE 0 END + abs(:price::numeric),
       price_unit = :unit,
       price_fetched_at = now()
     WHERE provider_message_id = :messageSid AND price_fetched_at IS NULL`,
    { messageSid, price: reported.price, unit: reported.unit },
  );
  return rowCount === 1;
}

/** The lookup ends without a price (Twilio never reported one, or no longer knows the message). */
export async function recordSmsPriceGivenUp(db: Knex, messageSid: string) {
  const updated = await db('sms_messages')
    .where({ provider_message_id: messageSid })
    .whereNull('price_fetched_at')
    .update({ price_fetched_at: db.fn.now() });
  return updated === 1;
}

/**
 * Message sids of final Twilio SMS whose price lookup is still open, final for longer than
 * `graceMs` (the API enqueues their lookup when the final status arrives): oldest first,
 * so SMS stored before prices were kept are priced too, a batch at a time.
 */
export async function listSmsPricesDue(db: Knex, { graceMs, limit }: { graceMs: number; limit: number }) {
  return db('sms_messages')
    .whereNull('price_fetched_at')
    // Literals, as in the partial index sms_messages_price_due_idx, so the planner can use it.
    .whereRaw(`provider = '${PRICED_PROVIDER}' AND provider_message_id IS NOT NULL AND status IN (${sqlList(SMS_PRICED_STATUSES)})`)
    .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
    .orderBy('updated_at')
    .limit(limit)
    .pluck<string[]>('provider_message_id');
}
