/**
 * First-party analytics ingest: a client event id per event (unique, so a batch sent or
 * processed twice is stored once), the page of form and section events, the landing
 * page and campaign of funnel steps as columns, and the indexes of the live figures and
 * the funnel queries.
 */
import type { Knex } from 'knex';

const EVENT_TABLES = ['page_views', 'conversion_funnel', 'section_views', 'form_interactions'];

export async function up(knex: Knex) {
  for (const table of EVENT_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.uuid('event_id').notNullable().unique();
    });
  }
  await knex.schema.alterTable('section_views', (t) => {
    t.text('path');
  });
  await knex.schema.alterTable('form_interactions', (t) => {
    t.text('path');
  });
  await knex.raw(`
    ALTER TABLE conversion_funnel
      ADD COLUMN landing_path text GENERATED ALWAYS AS (metadata->>'path') STORED,
      ADD COLUMN utm_source text GENERATED ALWAYS AS (metadata->>'utm_source') STORED
  `);
  await knex.schema.alterTable('page_views', (t) => {
    t.index(['path', 'timestamp']);
  });
  await knex.schema.alterTable('conversion_funnel', (t) => {
    t.index(['landing_path', 'timestamp']);
    t.index(['session_id']);
  });
  await knex.schema.alterTable('form_interactions', (t) => {
    t.index(['path', 'timestamp']);
    t.index(['session_id', 'action']);
  });
  // The live "recent deliveries" figure.
  await knex.raw(
    `CREATE INDEX sms_messages_sent_idx ON sms_messages (sent_at) WHERE status IN ('sent', 'delivered')`,
  );
}

export async function down(knex: Knex) {
  await knex.raw('DROP INDEX sms_messages_sent_idx');
  await knex.schema.alterTable('form_interactions', (t) => {
    t.dropIndex(['session_id', 'action']);
    t.dropIndex(['path', 'timestamp']);
    t.dropColumn('path');
  });
  await knex.schema.alterTable('conversion_funnel', (t) => {
    t.dropIndex(['landing_path', 'timestamp']);
    t.dropIndex(['session_id']);
  });
  await knex.raw('ALTER TABLE conversion_funnel DROP COLUMN landing_path, DROP COLUMN utm_source');
  await knex.schema.alterTable('page_views', (t) => {
    t.dropIndex(['path', 'timestamp']);
  });
  await knex.schema.alterTable('section_views', (t) => {
    t.dropColumn('path');
  });
  for (const table of EVENT_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('event_id');
    });
  }
}
