/**
 * The daily funnel rollup: per Italian day, landing page and campaign, the sessions that
 * reached each step (counts only, no session ids), and the days the worker has aggregated,
 * so a report can tell "aggregated, nobody came" from "not aggregated yet".
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('funnel_daily', (t) => {
    t.date('day').notNullable();
    t.text('landing_path').notNullable();
    t.text('utm_source').notNullable();
    for (const step of ['landing', 'form_view', 'form_start', 'form_submit', 'success']) {
      t.integer(step).notNullable();
    }
    t.primary(['day', 'landing_path', 'utm_source']);
  });
  await knex.schema.createTable('funnel_daily_days', (t) => {
    t.date('day').primary();
    t.timestamp('aggregated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('funnel_daily_days');
  await knex.schema.dropTable('funnel_daily');
}
