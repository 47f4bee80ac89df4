/**
 * What each lead cost (issue 30, decision 060).
 *
 * sms_messages gets the price Twilio reports for the SMS, fetched by the worker once the
 * SMS is final (Twilio fills it in some time after the last status): `price` is the
 * absolute cost (Twilio reports "-0.07400"), in `price_unit` (ISO 4217, the account's
 * currency). `price_fetched_at` says the lookup ended: with a price, when it was stored;
 * without one, when the worker gave up (Twilio never reported it, or no longer knows the
 * message). A resend through Twilio opens the lookup again and adds its price, so `price`
 * is what all of the lead's SMS cost. SMS of the outbox provider are never priced.
 *
 * ad_spend holds what the operator paid the ad platforms, one row per day, utm_source and
 * utm_campaign ('' for spend of a whole source), imported from CSV files in the admin; a
 * later import of the same day and campaign replaces the row. `import_id` names the upload
 * (the audit log's entry says who and how many rows), `imported_by` the admin.
 */
import type { Knex } from 'knex';

/** The statuses after which Twilio bills the SMS and reports its price (delivery-statuses.ts). */
const FINAL = `('delivered', 'undelivered', 'failed')`;

export async function up(knex: Knex) {
  await knex.schema.alterTable('sms_messages', (t) => {
    t.decimal('price', 12, 5);
    t.text('price_unit');
    t.timestamp('price_fetched_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_price_check CHECK (price IS NULL OR price >= 0)`);
  await knex.raw(
    `ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_price_unit_check CHECK (price_unit IS NULL OR price_unit ~ '^[A-Z]{3}$')`,
  );
  // The sweep of final Twilio SMS whose price lookup has no job: only those still to price.
  await knex.raw(
    `CREATE INDEX sms_messages_price_due_idx ON sms_messages (updated_at)
     WHERE price_fetched_at IS NULL AND provider = 'twilio' AND provider_message_id IS NOT NULL AND status IN ${FINAL}`,
  );

  await knex.schema.createTable('ad_spend', (t) => {
    t.bigIncrements('id');
    t.date('day').notNullable();
    t.text('utm_source').notNullable();
    t.text('utm_campaign').notNullable().defaultTo('');
    t.decimal('amount', 12, 2).notNullable();
    t.text('currency').notNullable().defaultTo('EUR');
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('import_id').notNullable();
    t.integer('imported_by').references('users.id').onDelete('SET NULL');
    t.unique(['day', 'utm_source', 'utm_campaign']);
  });
  await knex.raw(`ALTER TABLE ad_spend ADD CONSTRAINT ad_spend_amount_check CHECK (amount >= 0)`);
  await knex.raw(`ALTER TABLE ad_spend ADD CONSTRAINT ad_spend_currency_check CHECK (currency ~ '^[A-Z]{3}$')`);
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('ad_spend');
  await knex.raw('DROP INDEX sms_messages_price_due_idx');
  await knex.schema.alterTable('sms_messages', (t) => {
    // Their checks go with them.
    t.dropColumn('price_fetched_at');
    t.dropColumn('price_unit');
    t.dropColumn('price');
  });
}
