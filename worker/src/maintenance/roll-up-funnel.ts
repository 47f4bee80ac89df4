import type { Knex } from 'knex';
import { OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import { FUNNEL_BY_DAY_SQL, FUNNEL_SPLIT_COLUMNS } from '@guida/shared/server/funnel-by-day-sql';
import type { Logger } from '@guida/shared/server/logger';

/**
 * A day's funnel is final two days after it ends: its sessions' steps count for 24 h after
 * their landing, and the API keeps client times up to 24 h old. So today and the two days
 * before stay live (computed from raw rows by the API); older days are aggregated.
 */
export const OPEN_DAYS = 3;
/** Closed days aggregated again on every run, for events that waited in the stream (worker down). */
const RECHECKED_DAYS = 4;
/** Days aggregated per statement when catching up (first run, long outage). */
const DAYS_PER_STATEMENT = 31;

export interface RollUpFunnelDeps {
  db: Knex;
  logger: Logger;
}

const ROLLUP_COLUMNS = ['day', 'landing_path', ...FUNNEL_SPLIT_COLUMNS, 'landing', 'form_view', 'form_start', 'form_submit', 'success'].join(', ');

/** The instant an Italian day (a date expression) begins. */
const midnight = (day: string) => `((${day})::timestamp AT TIME ZONE '${OPERATOR_TIME_ZONE}')`;

/**
 * Aggregates closed Italian days into funnel_daily: the days never aggregated since the
 * first analytics row, and again the last few closed days. Counts only; the raw rows stay
 * the record and keep their own retention.
 */
export function createRollUpFunnel(deps: RollUpFunnelDeps) {
  const { db, logger } = deps;

  async function daysToAggregate(now: Date) {
    const { rows } = await db.raw<{ rows: { day: string }[] }>(
      `WITH bounds AS (
         SELECT (min(timestamp) AT TIME ZONE '${OPERATOR_TIME_ZONE}')::date AS first_day,
           (CAST(:now AS timestamptz) AT TIME ZONE '${OPERATOR_TIME_ZONE}')::date - ${OPEN_DAYS} AS last_closed
         FROM conversion_funnel
       )
       SELECT to_char(d, 'YYYY-MM-DD') AS day
       FROM bounds, generate_series(bounds.first_day, bounds.last_closed, interval '1 day') AS d
       WHERE d >= bounds.last_closed - ${RECHECKED_DAYS - 1}
         OR NOT EXISTS (SELECT 1 FROM funnel_daily_days a WHERE a.day = d::date)
       ORDER BY d`,
      { now },
    );
    return rows.map((row) => row.day);
  }

  /** Replaces the rollup of the consecutive days [first, last]. */
  async function aggregate(first: string, last: string) {
    await db.transaction(async (trx) => {
      await trx.raw('DELETE FROM funnel_daily WHERE day BETWEEN :first AND :last', { first, last });
      await trx.raw(
        `INSERT INTO funnel_daily (${ROLLUP_COLUMNS})
         SELECT ${ROLLUP_COLUMNS} FROM (${FUNNEL_BY_DAY_SQL}) funnel`,
        {
          from: trx.raw(midnight('CAST(? AS date)'), [first]),
          to: trx.raw(midnight('CAST(? AS date) + 1'), [last]),
        },
      );
      await trx.raw(
        `INSERT INTO funnel_daily_days (day)
         SELECT generate_series(CAST(:first AS date), CAST(:last AS date), interval '1 day')::date
         ON CONFLICT (day) DO UPDATE SET aggregated_at = now()`,
        { first, last },
      );
    });
  }

  /** Runs as of `now` (a parameter, so tests can move the clock); returns the days aggregated. */
  return async function rollUpFunnel(now = new Date()) {
    const days = await daysToAggregate(now);
    // Runs of consecutive days, at most DAYS_PER_STATEMENT each.
    let start = 0;
    for (let index = 1; index <= days.length; index += 1) {
      const consecutive =
        index < days.length &&
        index - start < DAYS_PER_STATEMENT &&
        Date.parse(days[index]!) - Date.parse(days[index - 1]!) === 86_400_000;
      if (consecutive) continue;
      await aggregate(days[start]!, days[index - 1]!);
      start = index;
    }
    if (days.length > 0) logger.info({ first: days[0], last: days.at(-1), days: days.length }, 'funnel days aggregated');
    return days.length;
  };
}
