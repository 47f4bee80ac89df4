import type { Knex } from 'knex';
import { OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import { campaignSourceFilter, campaignSourceSql } from '@guida/shared/server/campaign-source-sql';
import { FUNNEL_BY_DAY_SQL, FUNNEL_SPLIT_COLUMNS, type FunnelSplitColumn } from '@guida/shared/server/funnel-by-day-sql';
import { isEngagedSql, isReachableSql, isVerifiedSql } from '@guida/shared/server/verified-lead-sql';
import { addDays, operatorDay, startOfOperatorDay } from './report-range';

/** The funnel's filters, each on the column of the same name in snake_case. */
const FILTER_COLUMNS = {
  landingPath: 'landing_path',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmTerm: 'utm_term',
  utmContent: 'utm_content',
  heroVariant: 'hero_variant',
} as const;
type FilterName = keyof typeof FILTER_COLUMNS;

export type FunnelFilter = { from: Date; to: Date } & { [F in FilterName]?: string | undefined };

export type FunnelRow = { day: string; landing_path: string } & Record<FunnelSplitColumn, string> & {
  landing: number;
  form_view: number;
  form_start: number;
  form_submit: number;
  success: number;
};

const nextDay = (day: string) => addDays(day, 1);

const FILTER_NAMES = Object.keys(FILTER_COLUMNS) as FilterName[];
const rowFilter = FILTER_NAMES.map(
  (name) => `(CAST(:${name} AS text) IS NULL OR ${FILTER_COLUMNS[name]} = :${name})`,
).join(' AND ');
const DAY_AND_SPLIT_COLUMNS = `to_char(day, 'YYYY-MM-DD') AS day, landing_path, ${FUNNEL_SPLIT_COLUMNS.join(', ')}`;
const FUNNEL_COLUMNS = `${DAY_AND_SPLIT_COLUMNS},
    landing, form_view, form_start, form_submit, success`;
const ORDER = `day, landing_path, ${FUNNEL_SPLIT_COLUMNS.join(', ')}`;

const filterBindings = (filter: FunnelFilter) => ({
  ...Object.fromEntries(FILTER_NAMES.map((name) => [name, filter[name] ?? null])),
  utmSource: campaignSourceFilter(filter.utmSource) ?? null,
});

/** The funnel of the landings in [from, to), computed from the raw rows. */
async function funnelFromRawRows(db: Knex, filter: FunnelFilter, from: Date, to: Date) {
  if (from >= to) return [];
  const result = await db.raw<{ rows: FunnelRow[] }>(
    `SELECT ${FUNNEL_COLUMNS} FROM (${FUNNEL_BY_DAY_SQL}) funnel
    WHERE ${rowFilter}
    ORDER BY ${ORDER}`,
    { from, to, ...filterBindings(filter) },
  );
  return result.rows;
}

/**
 * The longest run of days the worker has aggregated that starts at the first whole day of
 * the range and stays inside it, or null.
 */
async function aggregatedDays(db: Knex, filter: FunnelFilter) {
  let first = operatorDay(filter.from);
  if (startOfOperatorDay(first) < filter.from) first = nextDay(first);
  // The day `to` falls in has not ended by `to`, whether `to` is its midnight or later.
  const lastWhole = addDays(operatorDay(filter.to), -1);
  if (first > lastWhole) return null;
  const { rows } = await db.raw<{ rows: { day: string }[] }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM funnel_daily_days WHERE day BETWEEN :first AND :lastWhole ORDER BY day`,
    { first, lastWhole },
  );
  let last: string | null = null;
  for (const { day } of rows) {
    if (day !== (last === null ? first : nextDay(last))) break;
    last = day;
  }
  return last === null ? null : { first, last };
}

/**
 * Sessions reaching each funnel step, per day, landing page, campaign and variant (see
 * FUNNEL_BY_DAY_SQL for what counts). Days the worker has aggregated come from the daily
 * rollup; the rest of the range (the last days, still open) from the raw rows.
 */
export async function funnelByDay(db: Knex, filter: FunnelFilter): Promise<FunnelRow[]> {
  const rolled = await aggregatedDays(db, filter);
  if (!rolled) return funnelFromRawRows(db, filter, filter.from, filter.to);
  const rolledFrom = startOfOperatorDay(rolled.first);
  const rolledTo = startOfOperatorDay(nextDay(rolled.last));
  const aggregated = await db.raw<{ rows: FunnelRow[] }>(
    `SELECT ${FUNNEL_COLUMNS} FROM funnel_daily
    WHERE day BETWEEN :first AND :last AND ${rowFilter}
    ORDER BY ${ORDER}`,
    { first: rolled.first, last: rolled.last, ...filterBindings(filter) },
  );
  return [
    ...(await funnelFromRawRows(db, filter, filter.from, rolledFrom)),
    ...aggregated.rows,
    ...(await funnelFromRawRows(db, filter, rolledTo, filter.to)),
  ];
}

/** The funnel's split of a lead (ebook_requests l), as the funnel's columns name it. */
const LEAD_SPLIT_SQL = `(l.created_at AT TIME ZONE '${OPERATOR_TIME_ZONE}')::date AS day,
  coalesce(l.landing_path, '') AS landing_path,
  ${FUNNEL_SPLIT_COLUMNS.map((column) => (column === 'utm_source' ? `${campaignSourceSql('l.utm_source')} AS utm_source` : `coalesce(l.${column}, '') AS ${column}`)).join(',\n  ')}`;

type VerifiedLeadsRow = Omit<FunnelRow, 'landing' | 'form_view' | 'form_start' | 'form_submit' | 'success'> & {
  sms_delivered: number;
  guide_opened: number;
};

/**
 * The funnel's last two steps (decision 059): of the leads stored in [from, to), per day of
 * the request and the funnel's split, how many have had their SMS delivered and their guide
 * opened by now. Leads, not sessions: the split is the lead's own landing and campaign.
 */
async function verifiedLeadsByDay(db: Knex, filter: FunnelFilter) {
  const { rows } = await db.raw<{ rows: VerifiedLeadsRow[] }>(
    `SELECT ${DAY_AND_SPLIT_COLUMNS},
       count(*) FILTER (WHERE reachable)::int AS sms_delivered,
       count(*) FILTER (WHERE engaged)::int AS guide_opened
     FROM (
       SELECT ${LEAD_SPLIT_SQL}, ${isReachableSql('l')} AS reachable, ${isEngagedSql('l')} AS engaged
       FROM ebook_requests l
       WHERE l.created_at >= :from AND l.created_at < :to AND ${isVerifiedSql('l')}
     ) leads
     WHERE ${rowFilter}
     GROUP BY ${ORDER}`,
    { from: filter.from, to: filter.to, ...filterBindings(filter) },
  );
  return rows;
}

export type FunnelWithLeadsRow = FunnelRow & { sms_delivered: number; guide_opened: number };

/** The funnel by day (funnelByDay) with its last two steps, the leads' SMS delivered and guide opened, in the funnel's order. */
export async function funnelWithVerifiedLeads(db: Knex, filter: FunnelFilter): Promise<FunnelWithLeadsRow[]> {
  const [sessions, leads] = await Promise.all([funnelByDay(db, filter), verifiedLeadsByDay(db, filter)]);
  const keyOf = (row: Omit<VerifiedLeadsRow, 'sms_delivered' | 'guide_opened'>) =>
    JSON.stringify([row.day, row.landing_path, ...FUNNEL_SPLIT_COLUMNS.map((column) => row[column])]);
  const rows = new Map<string, FunnelWithLeadsRow>(
    sessions.map((row) => [keyOf(row), { ...row, sms_delivered: 0, guide_opened: 0 }]),
  );
  for (const lead of leads) {
    const row = rows.get(keyOf(lead));
    if (row) Object.assign(row, { sms_delivered: lead.sms_delivered, guide_opened: lead.guide_opened });
    else rows.set(keyOf(lead), { ...lead, landing: 0, form_view: 0, form_start: 0, form_submit: 0, success: 0 });
  }
  // Splits with leads and no landing go after the day's others; within a day, the funnel's order.
  return [...rows.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
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
