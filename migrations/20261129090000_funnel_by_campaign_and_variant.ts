/**
 * The funnel rollup splits by the whole campaign (utm_medium, utm_campaign, utm_term,
 * utm_content beside utm_source) and by the hero variant shown (decision 016, issue 14).
 * "None" is stored as '' so the columns can stay in the primary key. Days still covered
 * by raw rows are aggregated again by the worker's next run; older days keep their
 * aggregates, with '' in the new columns (they were counted before the split existed).
 */
import type { Knex } from 'knex';

/** The Italian day, as the rollup counts it (frozen here: a migration must not change with the code). */
const OPERATOR_TIME_ZONE = 'Europe/Rome';
const SPLIT_COLUMNS = ['utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'hero_variant'] as const;
const STEPS = ['landing', 'form_view', 'form_start', 'form_submit', 'success'];

export async function up(knex: Knex) {
  await knex.raw('ALTER TABLE funnel_daily DROP CONSTRAINT funnel_daily_pkey');
  await knex.schema.alterTable('funnel_daily', (t) => {
    for (const column of SPLIT_COLUMNS) t.text(column).notNullable().defaultTo('');
    t.primary(['day', 'landing_path', 'utm_source', ...SPLIT_COLUMNS]);
  });
  // The first raw day may be cut by retention: it keeps its aggregate.
  await knex.raw(
    `DELETE FROM funnel_daily_days
     WHERE day > (SELECT (min(timestamp) AT TIME ZONE '${OPERATOR_TIME_ZONE}')::date FROM conversion_funnel)`,
  );
}

export async function down(knex: Knex) {
  await knex.raw(`CREATE TEMPORARY TABLE funnel_daily_by_source AS
    SELECT day, landing_path, utm_source, ${STEPS.map((step) => `sum(${step})::int AS ${step}`).join(', ')}
    FROM funnel_daily GROUP BY day, landing_path, utm_source`);
  await knex('funnel_daily').delete();
  await knex.raw('ALTER TABLE funnel_daily DROP CONSTRAINT funnel_daily_pkey');
  await knex.schema.alterTable('funnel_daily', (t) => {
    for (const column of SPLIT_COLUMNS) t.dropColumn(column);
    t.primary(['day', 'landing_path', 'utm_source']);
  });
  await knex.raw('INSERT INTO funnel_daily SELECT * FROM funnel_daily_by_source');
  await knex.raw('DROP TABLE funnel_daily_by_source');
}
