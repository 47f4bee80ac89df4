import type { Knex } from 'knex';
import { FUNNEL_STEPS, OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';

export interface FunnelFilter {
  from: Date;
  to: Date;
  landingPath?: string | undefined;
  utmSource?: string | undefined;
}

export interface FunnelRow {
  day: string;
  landing_path: string;
  utm_source: string;
  landing: number;
  form_view: number;
  form_start: number;
  form_submit: number;
  success: number;
}


/**
 * Sessions reaching each funnel step, per day, landing page and campaign. A session is
 * attributed to the page and campaign of its landing step; its later steps on that page
 * (within a day) count for that row, so steps without campaign data still line up.
 */
export async function funnelByDay(db: Knex, filter: FunnelFilter): Promise<FunnelRow[]> {
  const counts = FUNNEL_STEPS.map(
    (step) => `count(DISTINCT s.session_id) FILTER (WHERE s.step = '${step}')::int AS ${step}`,
  ).join(',\n      ');
  const result = await db.raw<{ rows: FunnelRow[] }>(
    `
    WITH landings AS (
      SELECT DISTINCT ON (session_id, landing_path) session_id, landing_path, utm_source, timestamp
      FROM conversion_funnel
      WHERE step = 'landing' AND timestamp >= :from AND timestamp < :to
        AND (CAST(:landingPath AS text) IS NULL OR landing_path = :landingPath)
        AND (CAST(:utmSource AS text) IS NULL OR coalesce(utm_source, '(direct)') = :utmSource)
      ORDER BY session_id, landing_path, timestamp
    ),
    steps AS (
      SELECT to_char(l.timestamp AT TIME ZONE '${OPERATOR_TIME_ZONE}', 'YYYY-MM-DD') AS day, l.landing_path,
        coalesce(l.utm_source, '(direct)') AS utm_source, c.step, c.session_id
      FROM landings l
      JOIN conversion_funnel c
        ON c.session_id = l.session_id AND c.landing_path = l.landing_path
        AND c.timestamp >= l.timestamp AND c.timestamp < l.timestamp + interval '1 day'
    )
    SELECT day, landing_path, utm_source,
      ${counts}
    FROM steps s
    GROUP BY day, landing_path, utm_source
    ORDER BY day, landing_path, utm_source
    `,
    {
      from: filter.from,
      to: filter.to,
      landingPath: filter.landingPath ?? null,
      utmSource: filter.utmSource ?? null,
    },
  );
  return result.rows;
}

export interface TimeOnPageRow {
  path: string;
  exits: number;
  median_seconds: number;
  average_seconds: number;
}

/** How long visitors stay on each page, from their page_exit events. */
export async function timeOnPage(db: Knex, filter: FunnelFilter): Promise<TimeOnPageRow[]> {
  const result = await db.raw<{ rows: TimeOnPageRow[] }>(
    `
    SELECT path, count(*)::int AS exits,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY time_on_page)::float AS median_seconds,
      round(avg(time_on_page), 1)::float AS average_seconds
    FROM form_interactions
    WHERE action = 'page_exit' AND time_on_page IS NOT NULL
      AND timestamp >= :from AND timestamp < :to
      AND (CAST(:landingPath AS text) IS NULL OR path = :landingPath)
    GROUP BY path
    ORDER BY exits DESC
    `,
    { from: filter.from, to: filter.to, landingPath: filter.landingPath ?? null },
  );
  return result.rows;
}

export interface AbandonmentRow {
  path: string;
  field_name: string;
  sessions: number;
}

/**
 * Where visitors who started the form gave up: the last field they were in when they left
 * a page, for sessions that never sent it successfully.
 */
export async function abandonedFields(db: Knex, filter: FunnelFilter): Promise<AbandonmentRow[]> {
  const result = await db.raw<{ rows: AbandonmentRow[] }>(
    `
    SELECT e.path, e.field_name, count(DISTINCT e.session_id)::int AS sessions
    FROM form_interactions e
    WHERE e.action = 'page_exit' AND e.field_name IS NOT NULL
      AND e.timestamp >= :from AND e.timestamp < :to
      AND (CAST(:landingPath AS text) IS NULL OR e.path = :landingPath)
      AND NOT EXISTS (
        SELECT 1 FROM form_interactions s
        WHERE s.session_id = e.session_id AND s.action = 'submit_success'
      )
    GROUP BY e.path, e.field_name
    ORDER BY sessions DESC, e.path, e.field_name
    `,
    { from: filter.from, to: filter.to, landingPath: filter.landingPath ?? null },
  );
  return result.rows;
}
