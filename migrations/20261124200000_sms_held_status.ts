/**
 * `held`: an SMS an SMS budget stopped before the provider was called (decision 025).
 * `budget_exempt` marks the SMS an admin released, sent even though a budget is reached.
 * The budgets count SMS by the time the provider took them (sent_at, whatever was
 * reported since), and the sweeper looks for held SMS oldest first.
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const SMS_STATUSES = ['pending', 'retrying', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'skipped'];

const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

async function allowStatuses(knex: Knex, statuses: string[]) {
  await knex.raw(`
    ALTER TABLE sms_messages
      DROP CONSTRAINT sms_messages_status_check,
      ADD CONSTRAINT sms_messages_status_check CHECK (status IN (${list(statuses)}))
  `);
}

export async function up(knex: Knex) {
  await allowStatuses(knex, [...SMS_STATUSES, 'held']);
  await knex.schema.alterTable('sms_messages', (t) => {
    t.boolean('budget_exempt').notNullable().defaultTo(false);
  });
  await knex.raw(`CREATE INDEX sms_messages_held_idx ON sms_messages (created_at) WHERE status = 'held'`);
  await knex.raw(`CREATE INDEX sms_messages_budget_idx ON sms_messages (sent_at) WHERE sent_at IS NOT NULL`);
}

export async function down(knex: Knex) {
  // A held SMS becomes pending again: the old code sends it (no budget to stop it).
  await knex.raw(`
    WITH released AS (
      UPDATE sms_messages SET status = 'pending', updated_at = now() WHERE status = 'held' RETURNING id
    )
    INSERT INTO sms_events (sms_message_id, status, error_message)
    SELECT id, 'pending', 'held status removed by a migration rollback' FROM released
  `);
  await knex.raw('DROP INDEX sms_messages_budget_idx');
  await knex.raw('DROP INDEX sms_messages_held_idx');
  await knex.schema.alterTable('sms_messages', (t) => {
    t.dropColumn('budget_exempt');
  });
  await allowStatuses(knex, SMS_STATUSES);
}
