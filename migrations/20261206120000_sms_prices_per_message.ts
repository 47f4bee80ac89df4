/**
 * SMS prices per provider message (decision 060, review of issue 30).
 *
 * The price was kept on sms_messages and looked up by the row's current message id, so an
 * admin's resend before the earlier message was priced lost that price (or closed the new
 * lookup with it). Prices now have a table of their own, one row per Twilio message:
 * `sms_prices` (sms_id, provider_message_id unique, price, price_unit, fetched_at when the
 * price was stored, given_up_at when the lookup ended without one; both null: the lookup
 * is open). A row is opened by the SMS's final status report, or by a resend for the
 * message it replaces; what a lead's SMS cost is the sum of its rows.
 *
 * The columns of 20261206100000 on sms_messages are moved here and dropped. A price kept
 * there for earlier messages of a resent SMS (their sum: the old columns could not tell
 * them apart) becomes one row without a message id; the rollback sums the rows back.
 */
import type { Knex } from 'knex';

/** The statuses after which Twilio bills the SMS and reports its price (delivery-statuses.ts). */
const FINAL = `('delivered', 'undelivered', 'failed')`;

export async function up(knex: Knex) {
  await knex.schema.createTable('sms_prices', (t) => {
    t.bigIncrements('id');
    t.integer('sms_id').notNullable().references('sms_messages.id').onDelete('CASCADE').index();
    // Null only for a price carried over from before this table (see above).
    t.text('provider_message_id').unique();
    t.decimal('price', 12, 5);
    t.text('price_unit');
    t.timestamp('fetched_at', { useTz: true });
    t.timestamp('given_up_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    ALTER TABLE sms_prices
      ADD CONSTRAINT sms_prices_price_check CHECK (price IS NULL OR price >= 0),
      ADD CONSTRAINT sms_prices_price_unit_check CHECK (price_unit IS NULL OR price_unit ~ '^[A-Z]{3}$'),
      -- A price comes with its currency and its time; a lookup ends once, one way.
      ADD CONSTRAINT sms_prices_stored_check CHECK (
        (price IS NULL) = (price_unit IS NULL) AND (price IS NULL) = (fetched_at IS NULL)
        AND NOT (fetched_at IS NOT NULL AND given_up_at IS NOT NULL)
      )`);
  // The sweep of open lookups whose job was lost: only those are indexed.
  await knex.raw(`CREATE INDEX sms_prices_open_idx ON sms_prices (created_at) WHERE fetched_at IS NULL AND given_up_at IS NULL`);

  // Earlier messages' prices of an SMS resent while its current lookup is open.
  await knex.raw(`
    INSERT INTO sms_prices (sms_id, price, price_unit, fetched_at, created_at)
    SELECT id, price, price_unit, updated_at, updated_at FROM sms_messages
    WHERE price IS NOT NULL AND price_fetched_at IS NULL`);
  // Ended lookups, with a price (the sum of the SMS's messages) or given up.
  await knex.raw(`
    INSERT INTO sms_prices (sms_id, provider_message_id, price, price_unit, fetched_at, given_up_at, created_at)
    SELECT id, provider_message_id, price, price_unit,
      CASE WHEN price IS NOT NULL THEN price_fetched_at END,
      CASE WHEN price IS NULL THEN price_fetched_at END,
      price_fetched_at
    FROM sms_messages WHERE price_fetched_at IS NOT NULL`);
  // Open lookups of final Twilio messages.
  await knex.raw(`
    INSERT INTO sms_prices (sms_id, provider_message_id, created_at)
    SELECT id, provider_message_id, updated_at FROM sms_messages
    WHERE price_fetched_at IS NULL AND provider = 'twilio' AND provider_message_id IS NOT NULL AND status IN ${FINAL}
    ON CONFLICT (provider_message_id) DO NOTHING`);

  await knex.raw('DROP INDEX sms_messages_price_due_idx');
  await knex.schema.alterTable('sms_messages', (t) => {
    // Their checks go with them.
    t.dropColumn('price_fetched_at');
    t.dropColumn('price_unit');
    t.dropColumn('price');
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('sms_messages', (t) => {
    t.decimal('price', 12, 5);
    t.text('price_unit');
    t.timestamp('price_fetched_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_price_check CHECK (price IS NULL OR price >= 0)`);
  await knex.raw(
    `ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_price_unit_check CHECK (price_unit IS NULL OR price_unit ~ '^[A-Z]{3}$')`,
  );
  // One sum per SMS, in the currency of its newest price; the current message's lookup, if it ended.
  await knex.raw(`
    UPDATE sms_messages s SET
      price = priced.price,
      price_unit = priced.price_unit,
      price_fetched_at = (
        SELECT coalesce(p.fetched_at, p.given_up_at) FROM sms_prices p WHERE p.provider_message_id = s.provider_message_id
      )
    FROM (
      SELECT sms_id, sum(price) AS price, (array_agg(price_unit ORDER BY fetched_at DESC) FILTER (WHERE price IS NOT NULL))[1] AS price_unit
      FROM sms_prices GROUP BY sms_id
    ) priced
    WHERE priced.sms_id = s.id`);
  await knex.raw(
    `CREATE INDEX sms_messages_price_due_idx ON sms_messages (updated_at)
     WHERE price_fetched_at IS NULL AND provider = 'twilio' AND provider_message_id IS NOT NULL AND status IN ${FINAL}`,
  );
  await knex.schema.dropTable('sms_prices');
}
