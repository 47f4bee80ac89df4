import type { Knex } from 'knex';
import { SMS_DELIVERED, SMS_FAILED_STATUSES, type SmsStatus } from './delivery-statuses';

/**
 * The price of each message Twilio sent for an SMS (decision 060), kept in sms_prices, one
 * row per provider message: every write to it. A row is opened when the message becomes
 * final (the status report, sms-deliveries.ts) or when a resend replaces it (reopenSms);
 * `fetched_at` or `given_up_at` set means its lookup ended, with a price or without one.
 * What a lead's SMS cost is the sum of its rows.
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

/** Whether a price lookup is still open, as SQL on an sms_prices alias. */
export const openPriceLookupSql = (alias: string) => `${alias}.fetched_at IS NULL AND ${alias}.given_up_at IS NULL`;

/**
 * How many of an SMS's messages still wait for their price, as SQL on an sms_messages
 * alias: open lookups, and its current Twilio message while it is not final yet (Twilio
 * bills it; its lookup opens with the final status).
 */
export const smsPricesPendingSql = (sms: string) => `(
  (SELECT count(*) FROM sms_prices open_lookup WHERE open_lookup.sms_id = ${sms}.id AND ${openPriceLookupSql('open_lookup')})
  + CASE WHEN ${sms}.provider = '${PRICED_PROVIDER}' AND ${sms}.provider_message_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM sms_prices of_current WHERE of_current.provider_message_id = ${sms}.provider_message_id)
    THEN 1 ELSE 0 END
)::int`;

/** Opens the price lookup of a Twilio message of the SMS, once: a second call changes nothing. */
export async function openSmsPriceLookup(db: Knex, smsId: number, messageSid: string) {
  await db('sms_prices').insert({ sms_id: smsId, provider_message_id: messageSid }).onConflict('provider_message_id').ignore();
}

/** The message Twilio knows as `messageSid`: its SMS and lead, and whether its price lookup is open. */
export async function smsPriceLookup(db: Knex, messageSid: string) {
  const row = await db('sms_prices as p')
    .join('sms_messages as s', 's.id', 'p.sms_id')
    .where('p.provider_message_id', messageSid)
    .first<{ sms_id: number; lead_id: number; open: boolean } | undefined>('p.sms_id', 's.lead_id', db.raw(`${openPriceLookupSql('p')} AS open`));
  return row ? { smsId: row.sms_id, leadId: row.lead_id, open: row.open } : null;
}

/**
 * Stores the price of the message (its absolute value), once: only while its lookup is
 * open. Other messages of the same SMS (a resend) keep theirs; false when there was
 * nothing to store.
 */
export async function recordSmsPrice(db: Knex, messageSid: string, reported: ReportedPrice) {
  const updated = await db('sms_prices')
    .where({ provider_message_id: messageSid })
    .whereRaw(openPriceLookupSql('sms_prices'))
    .update({ price: db.raw('abs(?::numeric)', [reported.price]), price_unit: reported.unit, fetched_at: db.fn.now() });
  return updated === 1;
}

/** The lookup ends without a price (Twilio never reported one, or no longer knows the message). */
export async function recordSmsPriceGivenUp(db: Knex, messageSid: string) {
  const updated = await db('sms_prices')
    .where({ provider_message_id: messageSid })
    .whereRaw(openPriceLookupSql('sms_prices'))
    .update({ given_up_at: db.fn.now() });
  return updated === 1;
}

/**
 * Message sids whose price lookup is still open, opened longer than `graceMs` ago (the
 * API enqueues the lookup when it opens it): oldest first, a batch at a time.
 */
export async function listSmsPricesDue(db: Knex, { graceMs, limit }: { graceMs: number; limit: number }) {
  return db('sms_prices')
    // As in the partial index sms_prices_open_idx, so the planner can use it.
    .whereRaw(openPriceLookupSql('sms_prices'))
    .whereNotNull('provider_message_id')
    .where('created_at', '<', db.raw('now() - make_interval(secs => ?)', [graceMs / 1000]))
    .orderBy('created_at')
    .limit(limit)
    .pluck<string[]>('provider_message_id');
}

/**
 * What an SMS's messages cost, for the lead's detail: the sum per currency of the prices
 * stored (decimal strings), how many messages still wait for theirs, and how many lookups
 * ended without one.
 */
export async function smsPriceSummary(db: Knex, smsId: number) {
  const [prices, { rows }] = await Promise.all([
    db('sms_prices')
      .where({ sms_id: smsId })
      .whereNotNull('price')
      .groupBy('price_unit')
      .orderBy('price_unit')
      .select<{ currency: string; amount: string }[]>({ currency: 'price_unit' }, db.raw('sum(price)::text AS amount')),
    db.raw<{ rows: { pending: number; given_up: number }[] }>(
      `SELECT ${smsPricesPendingSql('s')} AS pending,
         (SELECT count(*) FROM sms_prices g WHERE g.sms_id = s.id AND g.given_up_at IS NOT NULL)::int AS given_up
       FROM sms_messages s WHERE s.id = ?`,
      [smsId],
    ),
  ]);
  return { prices, pending: rows[0]?.pending ?? 0, givenUp: rows[0]?.given_up ?? 0 };
}
