import { OPERATOR_TIME_ZONE } from '../analytics-rules';
import { campaignSourceSql } from './campaign-source-sql';

/**
 * What splits the funnel beside the day and the landing page: the campaign of the landing
 * (its five UTM fields) and the hero variant it showed (decision 041). A landing without
 * utm_source (or with the leads' default, 'direct') counts as DIRECT_SOURCE, like its lead
 * (campaign-source-sql.ts); any other field it lacks as ''. The rollup stores these columns
 * in this order.
 */
export const FUNNEL_SPLIT_COLUMNS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'hero_variant',
] as const;
export type FunnelSplitColumn = (typeof FUNNEL_SPLIT_COLUMNS)[number];

const splitOf = (column: FunnelSplitColumn, index: number) =>
  `${column === 'utm_source' ? campaignSourceSql(`split[${index + 1}]`) : `coalesce(split[${index + 1}], '')`} AS ${column}`;

/**
 * The funnel of the sessions that landed in [:from, :to), per Italian day, landing page,
 * campaign and hero variant (day, landing_path, FUNNEL_SPLIT_COLUMNS, landing, form_view,
 * form_start, form_submit, success). A session counts once per page and day: from its first
 * landing there that day, with that landing's campaign and variant; its steps on that page in
 * the 24 h after that landing count for that row. Each day depends only on its own landings,
 * so a day aggregated once by the worker (funnel_daily) equals the same day computed from
 * raw rows.
 *
 * Two hash aggregations instead of count(DISTINCT ...) per group: the latter sorts every
 * step row of the range, which spilled to disk on a month of data.
 */
export const FUNNEL_BY_DAY_SQL = `
  WITH landings AS (
    SELECT f.session_id, f.landing_path, (f.timestamp AT TIME ZONE '${OPERATOR_TIME_ZONE}')::date AS day,
      min(f.timestamp) AS landed_at
    FROM conversion_funnel f
    WHERE f.step = 'landing' AND f.landing_path IS NOT NULL AND f.timestamp >= :from AND f.timestamp < :to
    GROUP BY 1, 2, 3
  ),
  sessions AS (
    SELECT l.day, l.landing_path,
      -- The landing's split, taken whole from one landing row. Two landings in the same
      -- instant: the smallest (a value sorts before none), so the result is stable.
      min(ARRAY[c.utm_source, ${FUNNEL_SPLIT_COLUMNS.slice(1).map((column) => `c.metadata->>'${column}'`).join(', ')}])
        FILTER (WHERE c.step = 'landing' AND c.timestamp = l.landed_at) AS split,
      bool_or(c.step = 'form_view') AS form_view,
      bool_or(c.step = 'form_start') AS form_start,
      bool_or(c.step = 'form_submit') AS form_submit,
      bool_or(c.step = 'success') AS success
    FROM landings l
    JOIN conversion_funnel c
      ON c.session_id = l.session_id AND c.landing_path = l.landing_path
      AND c.timestamp >= l.landed_at AND c.timestamp < l.landed_at + interval '1 day'
      -- Implied by the two lines above; lets the planner read only this range of steps.
      AND c.timestamp >= :from AND c.timestamp < CAST(:to AS timestamptz) + interval '1 day'
    GROUP BY l.session_id, l.landing_path, l.day, l.landed_at
  )
  SELECT day, landing_path, ${FUNNEL_SPLIT_COLUMNS.map(splitOf).join(', ')},
    count(*)::int AS landing,
    count(*) FILTER (WHERE form_view)::int AS form_view,
    count(*) FILTER (WHERE form_start)::int AS form_start,
    count(*) FILTER (WHERE form_submit)::int AS form_submit,
    count(*) FILTER (WHERE success)::int AS success
  FROM sessions
  -- By the split as output (named columns, not sessions' split): landings without
  -- utm_source and with 'direct' are one row.
  GROUP BY day, landing_path, ${FUNNEL_SPLIT_COLUMNS.join(', ')}
`;
