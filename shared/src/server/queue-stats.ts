import type { Job } from 'bullmq';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsDeadLetterCountKey,
  analyticsDeadLettersKey,
  analyticsStreamKey,
  type AnalyticsDeadLetter,
} from '@guida/shared/jobs/analytics-stream';
import { CONVERSION_SKIPPED, CRM_SKIPPED, type DeliveryStatus } from '@guida/shared/deliveries/delivery-statuses';
import { JOB_RETENTION, QUEUE_NAMES, type QueueName } from '@guida/shared/jobs/definition';
import type { QueueStats } from '@guida/shared/schemas/admin';
import type { JobQueues } from '@guida/shared/server/job-queues';

/** The promise to visitors: the SMS within 2 minutes of the request. */
export const SMS_PROMISE_SECONDS = 120;

const secondsSince = (timestamp: number, now: number) => Math.max(0, Math.round((now - timestamp) / 1000));

/**
 * Deliveries skipped (no CRM, or no Meta Conversions API, configured; a consent gone) over
 * the time BullMQ keeps completed jobs: their jobs completed without delivering anything,
 * and the tab must not call them done.
 */
async function skippedDeliveries(db: Knex, table: 'crm_deliveries' | 'conversion_uploads', skipped: DeliveryStatus) {
  const row = await db(table)
    .where('status', skipped)
    .andWhereRaw(`updated_at > now() - make_interval(secs => ?)`, [JOB_RETENTION.removeOnComplete.age])
    .count<{ count: string }[]>({ count: '*' })
    .first();
  return Number(row?.count ?? 0);
}

async function queueCounts(queues: JobQueues, name: QueueName, now: number, skipped: number | null) {
  const queue = queues.queue(name);
  const [counts, oldest] = await Promise.all([
    queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed', 'completed'),
    queue.getJobs(['wait'], 0, 0, true),
  ]);
  const oldestJob = oldest[0] as Job | undefined;
  const completed = counts.completed ?? 0;
  return {
    name,
    waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
    completed: skipped === null ? completed : Math.max(0, completed - skipped),
    skipped: skipped === null ? null : Math.min(skipped, completed),
    oldestWaitingSeconds: oldestJob ? secondsSince(oldestJob.timestamp, now) : null,
  };
}

interface GroupInfo {
  pending: number;
  lag: number | null;
}

/** XINFO GROUPS answers a flat [name, value, ...] list per group (RESP2 and RESP3 alike here). */
function readGroup(reply: unknown): GroupInfo | null {
  if (!Array.isArray(reply)) return null;
  for (const group of reply as unknown[]) {
    const fields = new Map<string, unknown>();
    if (Array.isArray(group)) {
      for (let index = 0; index + 1 < group.length; index += 2) fields.set(String(group[index]), group[index + 1]);
    } else if (group && typeof group === 'object') {
      for (const [key, value] of Object.entries(group)) fields.set(key, value);
    }
    if (String(fields.get('name')) !== ANALYTICS_CONSUMER_GROUP) continue;
    const lag = fields.get('lag');
    return { pending: Number(fields.get('pending') ?? 0), lag: lag === null || lag === undefined ? null : Number(lag) };
  }
  return null;
}

/** Dead letters shown in the queues tab (when and why; the events stay in Redis). */
const DEAD_LETTERS_SHOWN = 5;

async function analyticsStream(redis: Redis, prefix: string) {
  const key = analyticsStreamKey(prefix);
  const [length, group, total, kept, latest] = await Promise.all([
    redis.xlen(key),
    redis.xinfo('GROUPS', key).then(readGroup, () => null),
    redis.get(analyticsDeadLetterCountKey(prefix)),
    redis.llen(analyticsDeadLettersKey(prefix)),
    redis.lrange(analyticsDeadLettersKey(prefix), 0, DEAD_LETTERS_SHOWN - 1),
  ]);
  return {
    length,
    pending: group?.pending ?? 0,
    lag: group ? group.lag : length,
    deadLetters: {
      total: Number(total ?? 0),
      kept,
      latest: latest.map((item) => {
        const { at, reason } = JSON.parse(item) as AnalyticsDeadLetter;
        return { at, reason };
      }),
    },
  };
}

/**
 * Where every queue stands, and whether the SMS that wait now can still leave within the
 * promise at the configured sending rate.
 */
export async function queueStats(options: {
  db: Knex;
  queues: JobQueues;
  redis: Redis;
  prefix: string;
  smsRatePerSecond: number;
  now?: number;
}): Promise<QueueStats> {
  const now = options.now ?? Date.now();
  const skipped: Partial<Record<QueueName, number>> = {
    crm: await skippedDeliveries(options.db, 'crm_deliveries', CRM_SKIPPED),
    conversions: await skippedDeliveries(options.db, 'conversion_uploads', CONVERSION_SKIPPED),
  };
  const [queues, analytics] = await Promise.all([
    Promise.all(QUEUE_NAMES.map((name) => queueCounts(options.queues, name, now, skipped[name] ?? null))),
    analyticsStream(options.redis, options.prefix),
  ]);
  const sms = queues.find((queue) => queue.name === 'sms')!;
  // The last SMS in line leaves after the whole backlog; the first one may already be late.
  const projectedDrainSeconds = Math.ceil((sms.waiting + sms.delayed) / options.smsRatePerSecond);
  return {
    queues,
    analytics,
    sms: {
      ratePerSecond: options.smsRatePerSecond,
      projectedDrainSeconds,
      promiseAtRisk:
        projectedDrainSeconds > SMS_PROMISE_SECONDS || (sms.oldestWaitingSeconds ?? 0) > SMS_PROMISE_SECONDS,
    },
  };
}
