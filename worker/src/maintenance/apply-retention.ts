import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { analyticsDeadLettersKey, type AnalyticsDeadLetter } from '@guida/shared/jobs/analytics-stream';
import { GDPR_REQUEST_UNCONFIRMED } from '@guida/shared/gdpr-rules';
import { sendEmailJob } from '@guida/shared/jobs/email';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { enqueueLeadDeletedEvents, eraseLeads, forgetDeletionRequester, type LeadIdentity } from '../gdpr';

export interface RetentionDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  /** Where the analytics dead letters are kept (Redis, under the deployment's key prefix). */
  redis: Redis;
  redisKeyPrefix: string;
  retentionMonths: number;
  noticeDays: number;
  analyticsRetentionMonths: number;
  /** Leads notified or erased per transaction. */
  leadBatchSize?: number;
  /** Analytics rows deleted per statement: small, so no lock is held for long. */
  analyticsBatchSize?: number;
  /** Statements per table and run; the next run goes on where this one stopped. */
  maxBatches?: number;
}

/** Event tables and their time column; cookie choices outlive their validity only as proof. */
const ANALYTICS_TABLES = [
  ['page_views', 'timestamp'],
  ['form_interactions', 'timestamp'],
  ['section_views', 'timestamp'],
  ['conversion_funnel', 'timestamp'],
  ['cookie_consents', 'consent_timestamp'],
] as const;

/** A request nobody confirmed is dropped after this long: it cannot be acted on anyway. */
const UNCONFIRMED_REQUEST_DAYS = 30;
/** Safety net: the address of a completed deletion request is forgotten after this at the latest. */
const DELETION_REQUESTER_DAYS = 7;

/**
 * The retention rules, applied as of `now` (a parameter, so tests can move the clock):
 *
 * 1. leads that reach RETENTION_MONTHS within RETENTION_NOTICE_DAYS get one notice email
 *    (data_retention_notified);
 * 2. leads older than RETENTION_MONTHS are erased like a deletion request (and the CRM
 *    gets lead.deleted);
 * 3. analytics rows and cookie choices older than ANALYTICS_RETENTION_MONTHS are deleted,
 *    a small batch per statement (DELETE ... WHERE id IN (SELECT id ... LIMIT n)), so the
 *    tables are never locked for long and ingest goes on meanwhile;
 * 4. expired exports, unconfirmed requests and the last addresses of done deletions go;
 * 5. what no rule above reached and nothing needs forever goes too: the daily funnel
 *    rollup and the analytics dead letters after ANALYTICS_RETENTION_MONTHS, like the rows
 *    they come from; the audit log, and answered data requests other than deletions
 *    (their exports and emails with them), after RETENTION_MONTHS, like the leads they
 *    concern. A deletion request stays, without its address: the proof of an erasure.
 */
export function createApplyRetention(deps: RetentionDeps) {
  const { db, logger } = deps;
  const leadBatch = deps.leadBatchSize ?? 200;
  const analyticsBatch = deps.analyticsBatchSize ?? 5000;
  const maxBatches = deps.maxBatches ?? 100;

  async function cutoffs(now: Date) {
    const row = (
      await db.raw<{ rows: { erase_before: Date; notice_before: Date; analytics_before: Date }[] }>(
        `SELECT ?::timestamptz - make_interval(months => ?) AS erase_before,
                ?::timestamptz - make_interval(months => ?) + make_interval(days => ?) AS notice_before,
                ?::timestamptz - make_interval(months => ?) AS analytics_before`,
        [now, deps.retentionMonths, now, deps.retentionMonths, deps.noticeDays, now, deps.analyticsRetentionMonths],
      )
    ).rows[0]!;
    return row;
  }

  async function sendNotices(eraseBefore: Date, noticeBefore: Date) {
    let notified = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const { rows } = await db.raw<{ rows: { id: number }[] }>(
        `WITH due AS (
           SELECT id FROM ebook_requests
           WHERE NOT data_retention_notified AND created_at < ? AND created_at >= ?
           ORDER BY created_at
           LIMIT ?
           FOR UPDATE SKIP LOCKED
         ),
         marked AS (
           UPDATE ebook_requests l SET data_retention_notified = true FROM due WHERE l.id = due.id RETURNING l.id
         )
         INSERT INTO email_messages (lead_id, kind)
         SELECT id, 'retention-notice' FROM marked
         ON CONFLICT (lead_id, kind) DO NOTHING
         RETURNING id`,
        [noticeBefore, eraseBefore, leadBatch],
      );
      notified += rows.length;
      // Written first: if Redis is down the sweeper sends them later.
      await deps.queues
        .enqueueMany(sendEmailJob, rows.map((row) => ({ emailMessageId: row.id })))
        .catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'notices not enqueued; the sweeper will'));
      if (rows.length < leadBatch) break;
    }
    return notified;
  }

  async function eraseExpiredLeads(eraseBefore: Date) {
    let erased = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      // Their jobs are long gone (completed ones are kept a day, failed ones two weeks),
      // so unlike a deletion request there is nothing queued to cancel.
      const result = await db.transaction(async (trx) => {
        const leads = await trx('ebook_requests')
          .where('created_at', '<', eraseBefore)
          .orderBy('created_at')
          .limit(leadBatch)
          .forUpdate()
          .skipLocked()
          .select<LeadIdentity[]>('id', 'email', 'telefono');
        return leads.length ? eraseLeads(trx, leads, { reason: 'retention' }) : null;
      });
      if (!result) break;
      erased += result.leadIds.length;
      await enqueueLeadDeletedEvents(deps, result.leadIds);
      if (result.leadIds.length < leadBatch) break;
    }
    return erased;
  }

  async function deleteInBatches(table: string, column: string, before: Date) {
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const count = await db(table)
        .whereIn('id', db(table).select('id').where(column, '<', before).limit(analyticsBatch))
        .delete();
      deleted += count;
      if (count < analyticsBatch) break;
    }
    return deleted;
  }

  async function housekeeping(now: Date) {
    const exports = await db('gdpr_exports').where('expires_at', '<', now).delete();
    const unconfirmed = await db('gdpr_data_requests')
      .where({ status: GDPR_REQUEST_UNCONFIRMED })
      .where('submitted_at', '<', db.raw('?::timestamptz - make_interval(days => ?)', [now, UNCONFIRMED_REQUEST_DAYS]))
      .delete();
    const requesters = await db('gdpr_data_requests')
      .where({ request_type: 'deletion', status: 'completed' })
      .whereNotNull('email')
      .whereNotNull('erased_at')
      .where('completed_at', '<', db.raw('?::timestamptz - make_interval(days => ?)', [now, DELETION_REQUESTER_DAYS]))
      .pluck<number[]>('id');
    for (const id of requesters) await forgetDeletionRequester(db, id);
    const { erase_before: eraseBefore, analytics_before: analyticsBefore } = await cutoffs(now);
    const outbox = await deleteInBatches('outbox_messages', 'created_at', eraseBefore);
    const auditLog = await deleteInBatches('admin_audit_log', 'created_at', eraseBefore);
    const answeredRequests = await db('gdpr_data_requests')
      .whereNot({ request_type: 'deletion' })
      .whereIn('status', ['completed', 'rejected'])
      .where('completed_at', '<', eraseBefore)
      .delete();
    // The rollup's days go with their rows: a report then says "not aggregated", not "nobody came".
    const funnelDays = await db('funnel_daily').where('day', '<', analyticsBefore).delete();
    await db('funnel_daily_days').where('day', '<', analyticsBefore).delete();
    const deadLetters = await dropOldDeadLetters(analyticsBefore);
    return { exports, unconfirmed, requesters: requesters.length, outbox, auditLog, answeredRequests, funnelDays, deadLetters };
  }

  /** The dead letters (a short Redis list, newest first) set aside before `before`. */
  async function dropOldDeadLetters(before: Date) {
    const key = analyticsDeadLettersKey(deps.redisKeyPrefix);
    const letters = await deps.redis.lrange(key, 0, -1);
    const kept = letters.filter((letter) => {
      try {
        return Date.parse((JSON.parse(letter) as AnalyticsDeadLetter).at) >= before.getTime();
      } catch {
        return false;
      }
    });
    if (kept.length === letters.length) return 0;
    // Oldest last, as the consumer pushes them; entries set aside meanwhile are lost at most
    // to this run's rewrite, which takes a few milliseconds once an hour.
    const rewrite = deps.redis.multi().del(key);
    if (kept.length > 0) rewrite.rpush(key, ...kept);
    await rewrite.exec();
    return letters.length - kept.length;
  }

  return async function applyRetention(now: Date = new Date()) {
    const { erase_before: eraseBefore, notice_before: noticeBefore, analytics_before: analyticsBefore } =
      await cutoffs(now);
    const notified = await sendNotices(eraseBefore, noticeBefore);
    const erased = await eraseExpiredLeads(eraseBefore);
    const analytics: Record<string, number> = {};
    for (const [table, column] of ANALYTICS_TABLES) {
      analytics[table] = await deleteInBatches(table, column, analyticsBefore);
    }
    const cleaned = await housekeeping(now);
    const result = { notified, erased, analytics, ...cleaned };
    if (notified + erased + Object.values(analytics).reduce((a, b) => a + b, 0) > 0) {
      logger.info(result, 'retention applied');
    }
    return result;
  };
}
