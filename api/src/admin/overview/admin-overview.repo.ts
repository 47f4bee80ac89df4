import type { Knex } from 'knex';
import { OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import { HERO_EXPERIMENTS } from '@guida/shared/experiments';
import {
  CRM_DELIVERED,
  CRM_FAILED,
  CRM_NOT_TAKEN,
  CRM_RETRYING,
  CRM_SKIPPED,
  CRM_TRANSITIONS,
  SMS_FAILED_STATUSES,
  SMS_HELD,
} from '@guida/shared/deliveries/delivery-statuses';
import { sqlList } from '@guida/shared/deliveries/delivery-table';
import type { Overview, VerificationCounts } from '@guida/shared/schemas/admin';
import { campaignSourceSql, hasAdClickIdSql } from '@guida/shared/server/campaign-source-sql';
import { SMS_PROMISE_SECONDS } from '@guida/shared/server/queue-stats';
import { SMS_WAIT_STARTED_SQL } from '@guida/shared/server/sms-wait-started-sql';
import { isEngagedSql, isReachableSql } from '@guida/shared/server/verified-lead-sql';
import { experimentCounts } from '../experiments/experiment-counts.repo';
import { funnelByDay } from '../reports/funnel.repo';
import { leadCosts } from './lead-costs.repo';
import { addDays, operatorDay, startOfOperatorDay } from '../reports/report-range';

/**
 * The admin's overview (decision 042): a handful of queries, each on an indexed time
 * range, as of `now` (a parameter, so tests can place rows around an Italian midnight).
 */

const TREND_DAYS = 30;
const HOUR_MS = 3_600_000;
/** CRM deliveries still to be posted: claimable, or claimed by a worker right now. */
const CRM_BACKLOG = [...CRM_TRANSITIONS.claim.from, CRM_TRANSITIONS.claim.to];

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Leads per Italian day over the last 30 days, today included, days without leads as 0. */
async function leadsByDay(db: Knex, today: string) {
  const days = Array.from({ length: TREND_DAYS }, (_, index) => addDays(today, index - TREND_DAYS + 1));
  const { rows } = await db.raw<{ rows: { day: string; leads: number }[] }>(
    `SELECT to_char(created_at AT TIME ZONE '${OPERATOR_TIME_ZONE}', 'YYYY-MM-DD') AS day, count(*)::int AS leads
     FROM ebook_requests
     WHERE created_at >= :from AND created_at < :to
     GROUP BY 1`,
    { from: startOfOperatorDay(days[0]!), to: startOfOperatorDay(addDays(today, 1)) },
  );
  const counts = new Map(rows.map((row) => [row.day, row.leads]));
  const byDay = days.map((day) => ({ day, leads: counts.get(day) ?? 0 }));
  const sumOfLast = (count: number) => byDay.slice(-count).reduce((sum, row) => sum + row.leads, 0);
  return { today: sumOfLast(1), last7Days: sumOfLast(7), last30Days: sumOfLast(TREND_DAYS), byDay };
}

/** A group's leads and how many of them are verified (decision 059). */
type LeadCounts = { leads: number } & VerificationCounts;
const noLeads = (): LeadCounts => ({ leads: 0, reachable: 0, engaged: 0, verified: 0 });
const addLeads = (to: LeadCounts, from: LeadCounts) => {
  to.leads += from.leads;
  to.reachable += from.reachable;
  to.engaged += from.engaged;
  to.verified += from.verified;
};

/** SQL: the select list of a group's LeadCounts, over rows with the boolean columns `reachable` and `engaged`. */
const LEAD_COUNTS_SQL = `count(*)::int AS leads,
  count(*) FILTER (WHERE reachable)::int AS reachable,
  count(*) FILTER (WHERE engaged)::int AS engaged,
  count(*) FILTER (WHERE reachable OR engaged)::int AS verified`;

/** One grouping set's row: the columns outside its set are NULL. */
interface LeadGroupRow extends LeadCounts {
  landing_path: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  ad_click: boolean | null;
  is_total: boolean;
  by_page: boolean;
  by_ad_click: boolean;
  by_source: boolean;
}

/**
 * Leads and visitors by landing page, by source, by campaign (all five UTM fields, as the
 * funnel splits) and by ad click over [from, to), with how many of those leads are
 * verified by now. Visitors are the funnel's
 * landings (its daily rollup, decision 016), split like the leads: a lead without
 * campaign, stored as NULL or 'direct', is in the funnel's DIRECT_SOURCE bucket. The
 * funnel has no click ids, so the ad-click split has leads only.
 */
async function breakdowns(db: Knex, from: Date, to: Date) {
  const [leadGroups, funnel] = await Promise.all([
    db.raw<{ rows: LeadGroupRow[] }>(
      `SELECT landing_path, utm_source, utm_medium, utm_campaign, utm_term, utm_content, ad_click,
         GROUPING(landing_path, utm_source, ad_click) = 7 AS is_total,
         GROUPING(landing_path) = 0 AS by_page,
         GROUPING(ad_click) = 0 AS by_ad_click,
         GROUPING(utm_medium) = 1 AS by_source,
         ${LEAD_COUNTS_SQL}
       FROM (
         SELECT coalesce(landing_path, '') AS landing_path,
           ${campaignSourceSql('utm_source')} AS utm_source,
           coalesce(utm_medium, '') AS utm_medium,
           coalesce(utm_campaign, '') AS utm_campaign,
           coalesce(utm_term, '') AS utm_term,
           coalesce(utm_content, '') AS utm_content,
           ${hasAdClickIdSql('l')} AS ad_click,
           ${isReachableSql('l')} AS reachable,
           ${isEngagedSql('l')} AS engaged
         FROM ebook_requests l
         WHERE created_at >= :from AND created_at < :to
       ) l
       GROUP BY GROUPING SETS ((landing_path), (utm_source), (utm_source, utm_medium, utm_campaign, utm_term, utm_content), (ad_click), ())`,
      { from, to },
    ),
    funnelByDay(db, { from, to }),
  ]);
  const pages = new Map<string, Overview['byLandingPage'][number]>();
  const sources = new Map<string, Overview['bySource'][number]>();
  const campaigns = new Map<string, Overview['byCampaign'][number]>();
  const page = (landingPath: string) =>
    pages.get(landingPath) ?? pages.set(landingPath, { landingPath, visitors: 0, ...noLeads() }).get(landingPath)!;
  const source = (utmSource: string) =>
    sources.get(utmSource) ?? sources.set(utmSource, { utmSource, visitors: 0, ...noLeads() }).get(utmSource)!;
  type CampaignKey = Pick<Overview['byCampaign'][number], 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent'>;
  const campaign = (fields: CampaignKey) => {
    const key = JSON.stringify([fields.utmSource, fields.utmMedium, fields.utmCampaign, fields.utmTerm, fields.utmContent]);
    return campaigns.get(key) ?? campaigns.set(key, { ...fields, visitors: 0, ...noLeads() }).get(key)!;
  };
  /** A row's campaign: every UTM field, '' for one it lacks. */
  const campaignOf = (row: Record<'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_term' | 'utm_content', string | null>) =>
    campaign({
      utmSource: row.utm_source!,
      utmMedium: row.utm_medium!,
      utmCampaign: row.utm_campaign!,
      utmTerm: row.utm_term!,
      utmContent: row.utm_content!,
    });
  for (const row of funnel) {
    page(row.landing_path).visitors += row.landing;
    source(row.utm_source).visitors += row.landing;
    campaignOf(row).visitors += row.landing;
  }
  const verification = noLeads();
  // Both splits always show: with and without a click id, zero or not.
  const byAdClick = [true, false].map((adClick) => ({ adClick, ...noLeads() }));
  for (const row of leadGroups.rows) {
    if (row.is_total) addLeads(verification, row);
    else if (row.by_page) addLeads(page(row.landing_path!), row);
    else if (row.by_ad_click) addLeads(byAdClick.find((split) => split.adClick === row.ad_click)!, row);
    else if (row.by_source) addLeads(source(row.utm_source!), row);
    else addLeads(campaignOf(row), row);
  }
  const mostLeadsFirst = <T extends { leads: number; visitors: number }>(a: T, b: T) =>
    b.leads - a.leads || b.visitors - a.visitors;
  return {
    verification,
    byAdClick,
    byLandingPage: [...pages.values()].sort((a, b) => mostLeadsFirst(a, b) || a.landingPath.localeCompare(b.landingPath)),
    bySource: [...sources.values()].sort((a, b) => mostLeadsFirst(a, b) || a.utmSource.localeCompare(b.utmSource)),
    byCampaign: [...campaigns.values()].sort(
      (a, b) =>
        mostLeadsFirst(a, b) ||
        a.utmSource.localeCompare(b.utmSource) ||
        a.utmMedium.localeCompare(b.utmMedium) ||
        a.utmCampaign.localeCompare(b.utmCampaign) ||
        a.utmTerm.localeCompare(b.utmTerm) ||
        a.utmContent.localeCompare(b.utmContent),
    ),
  };
}

/** Visitors and leads (and of them the verified) per hero variant of each A/B experiment over [from, to) (decision 041). */
async function byVariant(db: Knex, from: Date, to: Date): Promise<Overview['byVariant']> {
  const perExperiment = await Promise.all(
    HERO_EXPERIMENTS.map(async (experiment) =>
      (await experimentCounts(db, experiment, { from, to })).map((counts) => ({
        experimentName: experiment.name,
        landingPath: experiment.path,
        variantLabel: experiment.variants.find((variant) => variant.id === counts.variantId)?.label ?? counts.variantId,
        visitors: counts.visitors,
        leads: counts.leads,
        reachable: counts.reachable,
        engaged: counts.engaged,
        verified: counts.verified,
      })),
    ),
  );
  return perExperiment.flat();
}

type TimingColumns<P extends string> = Record<`${P}_count` | `${P}_within`, number> &
  Record<`${P}_p50` | `${P}_p95`, number | null>;
type SmsTimingRow = TimingColumns<'provider_day'> &
  TimingColumns<'provider_week'> &
  TimingColumns<'delivered_day'> &
  TimingColumns<'delivered_week'>;

const timingColumns = (prefix: string, seconds: string, window: string) => `
  count(*) FILTER (WHERE ${window} AND ${seconds} IS NOT NULL)::int AS ${prefix}_count,
  count(*) FILTER (WHERE ${window} AND ${seconds} <= ${SMS_PROMISE_SECONDS})::int AS ${prefix}_within,
  round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}) FILTER (WHERE ${window})::numeric, 1)::float AS ${prefix}_p50,
  round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ${seconds}) FILTER (WHERE ${window})::numeric, 1)::float AS ${prefix}_p95`;

const timingOf = (row: SmsTimingRow, prefix: 'provider_day' | 'provider_week' | 'delivered_day' | 'delivered_week') => ({
  count: row[`${prefix}_count`],
  withinPromise: row[`${prefix}_within`],
  p50Seconds: row[`${prefix}_p50`],
  p95Seconds: row[`${prefix}_p95`],
});

/**
 * Seconds from the start of the wait (the request, or the resend) to the provider taking
 * the SMS and to its delivery report, for the SMS the provider took in the last 24 h and 7
 * days: the promise the alerts watch (decision 039), over longer windows.
 */
async function smsTiming(db: Knex, now: Date) {
  const { rows } = await db.raw<{ rows: SmsTimingRow[] }>(
    // MATERIALIZED: the wait's start is a subquery per SMS, computed once, not once per use.
    `WITH started AS MATERIALIZED (
       SELECT s.sent_at, s.delivered_at, ${SMS_WAIT_STARTED_SQL} AS at
       FROM sms_messages s
       JOIN ebook_requests l ON l.id = s.lead_id
       WHERE s.sent_at > :weekStart AND s.sent_at <= :now
     ),
     waits AS (
       SELECT sent_at,
         greatest(0, extract(epoch FROM sent_at - at)) AS to_provider,
         -- greatest() skips nulls: an SMS without its delivery report must stay null here.
         CASE WHEN delivered_at IS NOT NULL THEN greatest(0, extract(epoch FROM delivered_at - at)) END AS to_delivered
       FROM started
     )
     SELECT
       ${timingColumns('provider_day', 'to_provider', 'sent_at > :dayStart')},
       ${timingColumns('provider_week', 'to_provider', 'true')},
       ${timingColumns('delivered_day', 'to_delivered', 'sent_at > :dayStart')},
       ${timingColumns('delivered_week', 'to_delivered', 'true')}
     FROM waits`,
    { now, dayStart: new Date(now.getTime() - 24 * HOUR_MS), weekStart: new Date(now.getTime() - 7 * 24 * HOUR_MS) },
  );
  const row = rows[0]!;
  return {
    toProvider: { last24Hours: timingOf(row, 'provider_day'), last7Days: timingOf(row, 'provider_week') },
    toDelivered: { last24Hours: timingOf(row, 'delivered_day'), last7Days: timingOf(row, 'delivered_week') },
  };
}

/** SMS that failed or were not delivered in the last 7 days, by the provider's error code. */
async function smsFailuresByReason(db: Knex, now: Date): Promise<Overview['sms']['failuresByReason']> {
  const { rows } = await db.raw<{ rows: { error_code: string | null; count: number; last_message: string | null; last_at: Date }[] }>(
    `SELECT error_code, count(*)::int AS count,
       (array_agg(error_message ORDER BY failed_at DESC))[1] AS last_message,
       max(failed_at) AS last_at
     FROM sms_messages
     WHERE failed_at > :weekStart AND failed_at <= :now AND status IN (${sqlList(SMS_FAILED_STATUSES)})
     GROUP BY error_code
     ORDER BY count DESC, last_at DESC`,
    { now, weekStart: new Date(now.getTime() - 7 * 24 * HOUR_MS) },
  );
  return rows.map((row) => ({
    errorCode: row.error_code,
    count: row.count,
    lastMessage: row.last_message,
    lastAt: row.last_at.toISOString(),
  }));
}

interface BacklogRow {
  held: number;
  oldest_held_at: Date | null;
  crm_backlog: number;
  crm_oldest_backlog_at: Date | null;
  crm_retrying: number;
  crm_failed_week: number;
  crm_delivered_day: number;
  crm_skipped_day: number;
}

/** Held SMS (decision 025) and the CRM's backlog, failures and latest error. */
async function backlogs(db: Knex, now: Date) {
  const bounds = { now, dayStart: new Date(now.getTime() - 24 * HOUR_MS), weekStart: new Date(now.getTime() - 7 * 24 * HOUR_MS) };
  const [counts, lastError] = await Promise.all([
    db.raw<{ rows: BacklogRow[] }>(
      `SELECT held.count AS held, held.oldest AS oldest_held_at,
         backlog.count AS crm_backlog, backlog.oldest AS crm_oldest_backlog_at, backlog.retrying AS crm_retrying,
         recent.failed_week AS crm_failed_week, recent.delivered_day AS crm_delivered_day,
         recent.skipped_day AS crm_skipped_day
       FROM
         (SELECT count(*)::int AS count, min(created_at) AS oldest FROM sms_messages WHERE status = '${SMS_HELD}') held,
         (SELECT count(*)::int AS count, min(created_at) AS oldest,
            count(*) FILTER (WHERE status = '${CRM_RETRYING}')::int AS retrying
          FROM crm_deliveries WHERE status IN (${sqlList(CRM_BACKLOG)})) backlog,
         (SELECT count(*) FILTER (WHERE status = '${CRM_FAILED}')::int AS failed_week,
            count(*) FILTER (WHERE status = '${CRM_DELIVERED}' AND updated_at > :dayStart)::int AS delivered_day,
            count(*) FILTER (WHERE status = '${CRM_SKIPPED}' AND updated_at > :dayStart)::int AS skipped_day
          FROM crm_deliveries WHERE updated_at > :weekStart AND updated_at <= :now) recent`,
      bounds,
    ),
    db('crm_deliveries')
      .whereIn('status', CRM_NOT_TAKEN)
      .where('updated_at', '>', bounds.weekStart)
      .where('updated_at', '<=', now)
      .orderBy('updated_at', 'desc')
      .first<{ updated_at: Date; last_error: string | null; response_status: number | null } | undefined>(
        'updated_at',
        'last_error',
        'response_status',
      ),
  ]);
  const row = counts.rows[0]!;
  return {
    held: { count: row.held, oldestAt: iso(row.oldest_held_at) },
    crm: {
      backlog: row.crm_backlog,
      oldestBacklogAt: iso(row.crm_oldest_backlog_at),
      retrying: row.crm_retrying,
      failedLast7Days: row.crm_failed_week,
      deliveredLast24Hours: row.crm_delivered_day,
      skippedLast24Hours: row.crm_skipped_day,
      lastError: lastError
        ? { at: lastError.updated_at.toISOString(), message: lastError.last_error, httpStatus: lastError.response_status }
        : null,
    },
  };
}

/** Everything the overview shows; the breakdowns cover the last `days` Italian days, today included. */
export async function overview(db: Knex, { now, days }: { now: Date; days: number }): Promise<Omit<Overview, 'offer'>> {
  const today = operatorDay(now);
  const [from, to] = [startOfOperatorDay(addDays(today, 1 - days)), startOfOperatorDay(addDays(today, 1))];
  const [leads, split, variants, sms, failuresByReason, queues, costs] = await Promise.all([
    leadsByDay(db, today),
    breakdowns(db, from, to),
    byVariant(db, from, to),
    smsTiming(db, now),
    smsFailuresByReason(db, now),
    backlogs(db, now),
    leadCosts(db, { from, to, fromDay: addDays(today, 1 - days), toDay: today }),
  ]);
  return {
    generatedAt: now.toISOString(),
    promiseSeconds: SMS_PROMISE_SECONDS,
    leads,
    days,
    ...split,
    byVariant: variants,
    sms: { ...sms, failuresByReason, held: queues.held },
    crm: queues.crm,
    costs,
  };
}
