/**
 * The funnel now counts a landing whose address said utm_source=direct under "(direct)",
 * with the landings without utm_source: leads without one are stored as 'direct' (the
 * spec's default), and the admin shows both in one bucket (decision 045). Days rolled up
 * before keep a 'direct' row of their own; this adds it to the day's "(direct)" row, which
 * is what the rollup now computes for that day (each session is in one row of a day).
 */
import type { Knex } from 'knex';

/** Frozen here: a migration must not change with the code. */
const DIRECT = 'direct';
const DIRECT_SOURCE = '(direct)';
/** The rollup's key after utm_source. */
const SPLIT = ['utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'hero_variant'];
const KEY = ['day', 'landing_path', 'utm_source', ...SPLIT];
const STEPS = ['landing', 'form_view', 'form_start', 'form_submit', 'success'];

export async function up(knex: Knex) {
  await knex.raw(
    `INSERT INTO funnel_daily (${[...KEY, ...STEPS].join(', ')})
     SELECT day, landing_path, CAST(:directSource AS text), ${[...SPLIT, ...STEPS].join(', ')}
     FROM funnel_daily WHERE utm_source = :direct
     ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET
       ${STEPS.map((step) => `${step} = funnel_daily.${step} + EXCLUDED.${step}`).join(', ')}`,
    { direct: DIRECT, directSource: DIRECT_SOURCE },
  );
  await knex('funnel_daily').where({ utm_source: DIRECT }).delete();
}

/** The merged counts cannot be told apart again; the earlier code reads them as "(direct)". */
export async function down() {}
