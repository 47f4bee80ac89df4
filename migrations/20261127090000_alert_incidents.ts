/**
 * Alerts (decision 039): `alert_incidents`, one row per incident of a kind, open while
 * `resolved_at` is null (at most one open per kind, by a unique partial index, whatever
 * evaluations overlap); `alert_notifications`, one row per message to send (opened or
 * resolved, by email or webhook), kept until sent, so a failed send is retried and never
 * lost; `alert_conditions`, since when a condition that must hold for a while (the CRM
 * failing for N minutes) has held. Indexes for the evaluation's windows on the SMS and
 * CRM rows.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('alert_incidents', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable();
    t.timestamp('opened_at', { useTz: true }).notNullable();
    t.timestamp('resolved_at', { useTz: true });
    t.jsonb('details').notNullable().comment('the latest measurements: numbers only');
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['opened_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX alert_incidents_open_kind_key ON alert_incidents (kind) WHERE resolved_at IS NULL');

  await knex.schema.createTable('alert_notifications', (t) => {
    t.bigIncrements('id');
    t.bigInteger('incident_id').notNullable().references('alert_incidents.id').onDelete('CASCADE');
    t.text('event').notNullable().checkIn(['opened', 'resolved']);
    t.text('channel').notNullable().checkIn(['email', 'webhook']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.text('last_error');
    t.unique(['incident_id', 'event', 'channel']);
  });
  await knex.raw('CREATE INDEX alert_notifications_unsent_idx ON alert_notifications (next_attempt_at) WHERE sent_at IS NULL');

  await knex.schema.createTable('alert_conditions', (t) => {
    t.text('kind').primary();
    t.timestamp('active_since', { useTz: true }).notNullable();
  });

  await knex.raw('CREATE INDEX sms_messages_sent_at_idx ON sms_messages (sent_at) WHERE sent_at IS NOT NULL');
  await knex.raw('CREATE INDEX sms_messages_failed_at_idx ON sms_messages (failed_at) WHERE failed_at IS NOT NULL');
  await knex.raw('CREATE INDEX crm_deliveries_updated_at_idx ON crm_deliveries (updated_at)');
}

export async function down(knex: Knex) {
  await knex.raw('DROP INDEX crm_deliveries_updated_at_idx');
  await knex.raw('DROP INDEX sms_messages_failed_at_idx');
  await knex.raw('DROP INDEX sms_messages_sent_at_idx');
  await knex.schema.dropTable('alert_conditions');
  await knex.schema.dropTable('alert_notifications');
  await knex.schema.dropTable('alert_incidents');
}
