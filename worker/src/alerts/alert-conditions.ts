import type { Knex } from 'knex';
import {
  CONVERSION_DELIVERED,
  CONVERSION_NOT_TAKEN,
  CRM_DELIVERED,
  CRM_NOT_TAKEN,
  SMS_FAILED_STATUSES,
  SMS_HANDED_OVER,
  SMS_TRANSITIONS,
  type DeliveryStatus,
} from '@guida/shared/deliveries/delivery-statuses';
import { sqlList } from '@guida/shared/deliveries/delivery-table';
import { smsBudgetOverview } from '@guida/shared/deliveries/sms-deliveries';
import { smsBudgetLimits, type SmsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import type { AlertMeasures, Measurement } from '@guida/shared/server/alerts/evaluate-alerts';
import { GOOGLE_ADS_WINDOW_DAYS } from '@guida/shared/google-ads-conversions';
import { googleAdsCandidatePage } from '@guida/shared/server/google-ads-candidates';
import { SMS_WAIT_STARTED_SQL } from '@guida/shared/server/sms-wait-started-sql';
import type { WorkerConfig } from '../config';
import { metaConversionsSettings } from '../conversions';

/**
 * The conditions an alert watches (docs/ops/alerts.md), each measured from the delivery
 * rows as of `now` (a parameter, so tests move the clock instead of waiting).
 */

export interface AlertSettings {
  smsP95Seconds: number;
  smsFailurePercent: number;
  /** SMS the window must hold before its p95 or failure rate means anything. */
  smsMinCount: number;
  crmFailingMinutes: number;
  /** With no CRM configured every delivery is skipped: nothing can fail. */
  crmConfigured: boolean;
  conversionsFailingMinutes: number;
  /** With the Meta Conversions API off every upload is skipped: nothing can fail. */
  conversionsConfigured: boolean;
  /** Google Ads' scheduled URL (decision 062) when both its credentials are set; null while it is off. */
  googleAdsExport: { suppressionHashSecret: string } | null;
  smsBudgetLimits: SmsBudgetLimits;
}

/** The settings as the worker's configuration gives them. */
export const alertSettingsOf = (config: WorkerConfig): AlertSettings => ({
  smsP95Seconds: config.ALERT_SMS_P95_SECONDS,
  smsFailurePercent: config.ALERT_SMS_FAILURE_PERCENT,
  smsMinCount: config.ALERT_SMS_MIN_COUNT,
  crmFailingMinutes: config.ALERT_CRM_FAILING_MINUTES,
  crmConfigured: Boolean(config.CRM_WEBHOOK_URL),
  conversionsFailingMinutes: config.ALERT_CONVERSIONS_FAILING_MINUTES,
  conversionsConfigured: metaConversionsSettings(config) !== null,
  googleAdsExport:
    config.GOOGLE_ADS_EXPORT_USERNAME && config.GOOGLE_ADS_EXPORT_PASSWORD
      ? { suppressionHashSecret: config.SUPPRESSION_HASH_SECRET }
      : null,
  smsBudgetLimits: smsBudgetLimits(config),
});

/** The SMS p95 and the failure rate look at the last 10 minutes. */
const SMS_WINDOW_MINUTES = 10;
/** The product's promise: the SMS leaves within 2 minutes of the request. */
const SMS_PROMISE_SECONDS = 120;
/** The send rate the queue estimate projects is the last minute's. */
const RATE_WINDOW_SECONDS = 60;
/**
 * A queue is estimated once its oldest SMS has waited this long: an SMS normally leaves
 * in a second or two, and a rate measured over an SMS that just arrived means nothing.
 */
const QUEUE_ESTIMATE_AFTER_SECONDS = 30;
/**
 * Hours a file holding conversions may go without a fetch by Google Ads before its alert
 * opens: the schedule runs daily, so one missed run and a half day of slack.
 */
const GOOGLE_ADS_NOT_FETCHED_HOURS = 36;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const SMS_WAITING = [...SMS_TRANSITIONS.claim.from, ...SMS_TRANSITIONS.recordSent.from];
const SMS_FINISHED = [...SMS_HANDED_OVER, ...SMS_FAILED_STATUSES];

const seconds = (ms: number) => ms / 1000;
const round1 = (value: number) => Math.round(value * 10) / 10;

async function measureSmsP95(db: Knex, now: Date, settings: AlertSettings): Promise<Measurement<'sms_p95'>> {
  const { rows } = await db.raw<{ rows: { sms: number; p95: number | null }[] }>(
    `SELECT count(*)::int AS sms,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM s.sent_at - ${SMS_WAIT_STARTED_SQL}))::float8 AS p95
     FROM sms_messages s JOIN ebook_requests l ON l.id = s.lead_id
     WHERE s.sent_at > :start AND s.sent_at <= :now`,
    { start: new Date(now.getTime() - SMS_WINDOW_MINUTES * 60_000), now },
  );
  const { sms, p95 } = rows[0]!;
  const p95Seconds = round1(Math.max(0, p95 ?? 0));
  return {
    active: sms >= settings.smsMinCount && p95Seconds > settings.smsP95Seconds,
    details: { p95Seconds, thresholdSeconds: settings.smsP95Seconds, sms, windowMinutes: SMS_WINDOW_MINUTES },
  };
}

async function measureSmsFailureRate(
  db: Knex,
  now: Date,
  settings: AlertSettings,
): Promise<Measurement<'sms_failure_rate'>> {
  const { rows } = await db.raw<{ rows: { finished: number; failed: number }[] }>(
    `SELECT count(*)::int AS finished,
       count(*) FILTER (WHERE status IN (${sqlList(SMS_FAILED_STATUSES)}) AND failed_at > :start)::int AS failed
     FROM sms_messages
     WHERE status IN (${sqlList(SMS_FINISHED)})
       AND ((sent_at > :start AND sent_at <= :now) OR (failed_at > :start AND failed_at <= :now))`,
    { start: new Date(now.getTime() - SMS_WINDOW_MINUTES * 60_000), now },
  );
  const { finished, failed } = rows[0]!;
  const ratePercent = finished > 0 ? round1((failed * 100) / finished) : 0;
  return {
    active: finished >= settings.smsMinCount && ratePercent > settings.smsFailurePercent,
    details: {
      failed,
      finished,
      ratePercent,
      thresholdPercent: settings.smsFailurePercent,
      windowMinutes: SMS_WINDOW_MINUTES,
    },
  };
}

/** An outside service the failing alerts watch: its delivery rows and what counts as taken. */
interface FailingWatch<K extends 'crm_failing' | 'conversions_failing'> {
  kind: K;
  table: string;
  /** The rows of the service, when the table holds others' too. */
  scope: Record<string, string>;
  /** Without the service configured every row is skipped: nothing can fail. */
  configured: boolean;
  thresholdMinutes: number;
  delivered: DeliveryStatus;
  notTaken: readonly DeliveryStatus[];
}

/**
 * A service fails when its latest attempt failed (refused, or no answer) with no delivery
 * taken since; the alert needs that observed at every evaluation for N minutes. The
 * first observation is kept in alert_conditions, forgotten at the first success.
 */
async function measureFailing<K extends 'crm_failing' | 'conversions_failing'>(
  db: Knex,
  now: Date,
  watch: FailingWatch<K>,
): Promise<Measurement<K>> {
  const rows = () => db(watch.table).where(watch.scope);
  const latest = watch.configured
    ? await rows()
        .whereIn('status', [watch.delivered, ...watch.notTaken])
        .orderBy('updated_at', 'desc')
        .first<{ status: string; response_status: number | null; updated_at: Date } | undefined>(
          'status',
          'response_status',
          'updated_at',
        )
    : undefined;
  const failing = latest !== undefined && latest.status !== watch.delivered;
  const details = (failedDeliveries = 0, failingMinutes = 0) => ({
    failingMinutes,
    thresholdMinutes: watch.thresholdMinutes,
    failedDeliveries,
    lastHttpStatus: latest?.response_status ?? null,
  });
  if (!failing) {
    await db('alert_conditions').where({ kind: watch.kind }).delete();
    return { active: false, details: details() } as Measurement<K>;
  }
  await db('alert_conditions').insert({ kind: watch.kind, active_since: now }).onConflict('kind').ignore();
  const { active_since: since } = await db('alert_conditions').where({ kind: watch.kind }).first<{ active_since: Date }>();
  const lastTaken = rows().where('status', watch.delivered).max('updated_at');
  const counted = await rows()
    .whereIn('status', watch.notTaken)
    .where('updated_at', '>', db.raw(`COALESCE((?), '-infinity')`, [lastTaken]))
    .count<{ failed: string }[]>({ failed: '*' });
  const failingMinutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  return {
    active: failingMinutes >= watch.thresholdMinutes,
    details: details(Number(counted[0]?.failed ?? 0), failingMinutes),
  } as Measurement<K>;
}

const measureCrmFailing = (db: Knex, now: Date, settings: AlertSettings) =>
  measureFailing(db, now, {
    kind: 'crm_failing',
    table: 'crm_deliveries',
    scope: {},
    configured: settings.crmConfigured,
    thresholdMinutes: settings.crmFailingMinutes,
    delivered: CRM_DELIVERED,
    notTaken: CRM_NOT_TAKEN,
  });

/** Meta's conversions (decision 061); Google Ads fetches its own, so only Meta's rows can fail. */
const measureConversionsFailing = (db: Knex, now: Date, settings: AlertSettings) =>
  measureFailing(db, now, {
    kind: 'conversions_failing',
    table: 'conversion_uploads',
    scope: { platform: 'meta' },
    configured: settings.conversionsConfigured,
    thresholdMinutes: settings.conversionsFailingMinutes,
    delivered: CONVERSION_DELIVERED,
    notTaken: CONVERSION_NOT_TAKEN,
  });

/**
 * The first lead (in lead order) created in [since, until] that the Google Ads file holds
 * (the file's own rule, googleAdsCandidatePage), or null: read page by page, stopping at
 * the first page that has one.
 */
async function firstGoogleAdsLead(db: Knex, suppressionHashSecret: string, since: Date, until: Date) {
  for (let afterId: number | null = 0; afterId !== null; ) {
    const page = await googleAdsCandidatePage(db, { suppressionHashSecret, since, until, afterId, pageSize: 500 });
    if (page.candidates.length > 0) return page.candidates[0]!;
    afterId = page.lastId;
  }
  return null;
}

/**
 * Google Ads fetches its file itself (decision 062), so the product sees a failure only
 * as silence: no fetch has served the file for GOOGLE_ADS_NOT_FETCHED_HOURS while it held
 * a conversion all that time. A served fetch records every conversion of the file
 * (conversion_uploads, updated_at the fetch), so the last one is their latest update; a
 * file without conversions records nothing, hence the second condition, which keeps a
 * site without Google leads quiet. Refused fetches are not recorded (only counted on
 * /metrics), so they show here as the silence they cause.
 */
async function measureGoogleAdsNotFetched(
  db: Knex,
  now: Date,
  settings: AlertSettings,
): Promise<Measurement<'google_ads_not_fetched'>> {
  const threshold = new Date(now.getTime() - GOOGLE_ADS_NOT_FETCHED_HOURS * HOUR_MS);
  const measured = (active: boolean, lastFetchedAt: Date | null, waitingSince: Date) => ({
    active,
    details: {
      lastFetchedAt: lastFetchedAt?.toISOString() ?? null,
      waitingSince: waitingSince.toISOString(),
      thresholdHours: GOOGLE_ADS_NOT_FETCHED_HOURS,
    },
  });
  if (!settings.googleAdsExport) return measured(false, null, now);
  const { rows } = await db.raw<{ rows: { at: Date | null }[] }>(
    `SELECT max(updated_at) AS at FROM conversion_uploads WHERE platform = 'google_ads'`,
  );
  const lastFetchedAt = rows[0]?.at ?? null;
  if (lastFetchedAt && lastFetchedAt > threshold) return measured(false, lastFetchedAt, now);
  const since = new Date(now.getTime() - GOOGLE_ADS_WINDOW_DAYS * DAY_MS);
  const waiting = await firstGoogleAdsLead(db, settings.googleAdsExport.suppressionHashSecret, since, threshold);
  if (!waiting) return measured(false, lastFetchedAt, now);
  // Served by the last fetch (created before it): waiting since that fetch.
  const waitingSince = lastFetchedAt && lastFetchedAt > waiting.createdAt ? lastFetchedAt : waiting.createdAt;
  return measured(true, lastFetchedAt, waitingSince);
}

/**
 * Would the SMS waiting now leave within the promise at the current rate? The honest
 * estimate we can make: at the rate of the last minute, the queue empties in
 * waiting / rate; if that is longer than what the oldest SMS has left of its 2 minutes,
 * some SMS (the last in line, or the oldest) will be late. Held SMS are the budget's
 * alert, not this one.
 */
async function measureSmsQueuePromise(db: Knex, now: Date): Promise<Measurement<'sms_queue_promise'>> {
  const { rows } = await db.raw<{ rows: { waiting: number; oldest: Date | null; sent: number }[] }>(
    `SELECT
       (SELECT count(*)::int FROM sms_messages WHERE status IN (${sqlList(SMS_WAITING)})) AS waiting,
       (SELECT min(${SMS_WAIT_STARTED_SQL}) FROM sms_messages s JOIN ebook_requests l ON l.id = s.lead_id
         WHERE s.status IN (${sqlList(SMS_WAITING)})) AS oldest,
       (SELECT count(*)::int FROM sms_messages WHERE sent_at > :rateStart AND sent_at <= :now) AS sent`,
    { rateStart: new Date(now.getTime() - RATE_WINDOW_SECONDS * 1000), now },
  );
  const { waiting, oldest, sent } = rows[0]!;
  const oldestWaitSeconds = oldest ? Math.max(0, Math.round(seconds(now.getTime() - oldest.getTime()))) : 0;
  const perSecond = sent / RATE_WINDOW_SECONDS;
  const drainSeconds = perSecond > 0 ? Math.round(waiting / perSecond) : null;
  const late =
    oldestWaitSeconds >= SMS_PROMISE_SECONDS ||
    drainSeconds === null ||
    drainSeconds > SMS_PROMISE_SECONDS - oldestWaitSeconds;
  return {
    active: waiting > 0 && oldestWaitSeconds >= QUEUE_ESTIMATE_AFTER_SECONDS && late,
    details: {
      waiting,
      oldestWaitSeconds,
      sentPerMinute: round1(perSecond * 60),
      drainSeconds,
      promiseSeconds: SMS_PROMISE_SECONDS,
    },
  };
}

/** A budget is reached (the next SMS would be held) or SMS are held (decision 025). */
async function measureSmsBudget(db: Knex, now: Date, settings: AlertSettings): Promise<Measurement<'sms_budget'>> {
  const overview = await smsBudgetOverview(db, { limits: settings.smsBudgetLimits, now: () => now });
  const trippedBudgets = overview.budgets.filter((budget) => budget.tripped).length;
  return {
    active: overview.held.count > 0 || trippedBudgets > 0,
    details: { held: overview.held.count, trippedBudgets },
  };
}

/** The worker's alerts; the no-worker alert is the API's (decision 058). */
export const deliveryAlertMeasures = (settings: AlertSettings): AlertMeasures => ({
  sms_p95: (db, now) => measureSmsP95(db, now, settings),
  sms_failure_rate: (db, now) => measureSmsFailureRate(db, now, settings),
  crm_failing: (db, now) => measureCrmFailing(db, now, settings),
  sms_queue_promise: measureSmsQueuePromise,
  sms_budget: (db, now) => measureSmsBudget(db, now, settings),
  conversions_failing: (db, now) => measureConversionsFailing(db, now, settings),
  google_ads_not_fetched: (db, now) => measureGoogleAdsNotFetched(db, now, settings),
});
