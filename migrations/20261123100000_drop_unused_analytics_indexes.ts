/**
 * Indexes no query uses any more, dropped because every analytics row pays for them at
 * insert: the funnel reads its days by time (the rollup, and the open days by the
 * timestamp index), and the live figures read the last five minutes by the timestamp
 * index, where filtering by page costs nothing.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.alterTable('conversion_funnel', (t) => {
    t.dropIndex(['session_id']);
    t.dropIndex(['landing_path', 'timestamp']);
  });
  await knex.schema.alterTable('page_views', (t) => {
    t.dropIndex(['path', 'timestamp']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('page_views', (t) => {
    t.index(['path', 'timestamp']);
  });
  await knex.schema.alterTable('conversion_funnel', (t) => {
    t.index(['landing_path', 'timestamp']);
    t.index(['session_id']);
  });
}
