/**
 * Decision 052: an SMS knows whether its lead was trusted (a visit seen before the form:
 * it may use the share of the budgets kept for such leads, and is resumed first) and the
 * keyed digest of its client's address (the address budget; forgotten two days on unless
 * the SMS is still held). The network budget reads the lead's stored, truncated
 * `ip_address`. Held SMS are resumed trusted first, then oldest: the held index follows.
 * SMS stored before are untrusted and without an address: only the budgets they had apply.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.alterTable('sms_messages', (t) => {
    t.boolean('trusted').notNullable().defaultTo(false);
    t.text('budget_address');
  });
  await knex.raw('DROP INDEX sms_messages_held_idx');
  await knex.raw(`CREATE INDEX sms_messages_held_idx ON sms_messages (trusted DESC, created_at) WHERE status = 'held'`);
  await knex.raw('CREATE INDEX sms_messages_budget_address_idx ON sms_messages (created_at) WHERE budget_address IS NOT NULL');
}

export async function down(knex: Knex) {
  await knex.raw('DROP INDEX sms_messages_budget_address_idx');
  await knex.raw('DROP INDEX sms_messages_held_idx');
  await knex.raw(`CREATE INDEX sms_messages_held_idx ON sms_messages (created_at) WHERE status = 'held'`);
  await knex.schema.alterTable('sms_messages', (t) => {
    t.dropColumn('budget_address');
    t.dropColumn('trusted');
  });
}
