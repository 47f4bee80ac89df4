/**
 * `held`: an SMS an SMS budget stopped before the provider was called (decision 025).
 * `budget_exempt` marks the SMS an admin released, sent even though a budget is reached.
 * `sms_budget_counts`: SMS counted per minute for the whole budget ('all'), a country
 * ('IT', 'CH') and a number block (its first 6 digits), so a budget check reads at most a
 * day of minutes; filled here from the SMS sent in the last two days. The sweeper looks
 * for held SMS oldest first.
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
  await knex.schema.createTable('sms_budget_counts', (t) => {
    t.text('scope').notNullable();
    t.timestamp('minute', { useTz: true }).notNullable();
    t.integer('sms').notNullable();
    t.primary(['scope', 'minute']);
  });
  await knex.raw(`
    INSERT INTO sms_budget_counts (scope, minute, sms)
    SELECT scope, date_trunc('minute', s.sent_at), count(*)
    FROM sms_messages s
    JOIN ebook_requests l ON l.id = s.lead_id
    CROSS JOIN LATERAL (VALUES
      ('all'),
      (CASE substr(l.telefono, 2, 2) WHEN '39' THEN 'IT' WHEN '41' THEN 'CH' ELSE 'other' END),
      (substr(l.telefono, 2, 6))
    ) AS scopes (scope)
    WHERE s.sent_at > now() - interval '2 days'
    GROUP BY 1, 2
  `);
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
  await knex.schema.dropTable('sms_budget_counts');
  await knex.raw('DROP INDEX sms_messages_held_idx');
  await knex.schema.alterTable('sms_messages', (t) => {
    t.dropColumn('budget_exempt');
  });
  await allowStatuses(knex, SMS_STATUSES);
}
