import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  ANALYTICS_ENTRY_FIELD,
  ANALYTICS_STREAM_MAX_AGE_MS,
  ANALYTICS_STREAM_MAX_LENGTH,
  analyticsStreamKey,
} from '@guida/shared/jobs/analytics-stream';
import { isSitePage } from '@guida/shared/page-paths';
import type { AnalyticsEvent, IngestedEvent } from '@guida/shared/schemas/analytics';
import type { Logger } from '@guida/shared/server/logger';
import { withTimeout } from '@guida/shared/server/with-timeout';
import { recordPresence } from './presence';

const DAY_MS = 24 * 3600 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How often each API process measures the stream's memory. */
const MEMORY_CHECK_EVERY_MS = 5000;

/** The browser's time when plausible (batches arrive late), else the time we received it. */
function storedTime(occurredAt: string | undefined, now: number) {
  const at = occurredAt ? Date.parse(occurredAt) : Number.NaN;
  return Number.isFinite(at) && at > now - DAY_MS && at < now + CLOCK_SKEW_MS ? new Date(at) : new Date(now);
}

/** The site's pages the events were recorded on. */
function pagesOf(events: AnalyticsEvent[]): string[] {
  const paths = new Set<string>();
  for (const event of events) {
    const path = event.type === 'conversion' ? event.metadata?.path : event.path;
    if (path && isSitePage(path)) paths.add(path);
  }
  return [...paths];
}

export interface AnalyticsIntakeOptions {
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** Approximate memory the stream may use, in bytes. */
  maxStreamBytes: number;
  memoryCheckEveryMs?: number;
}

/**
 * Appends validated events to the analytics stream as one entry, and marks the client as
 * online (presence.ts). The visitor's IP is truncated before it leaves the API; events
 * without a client id get a fresh one.
 */
export function createAnalyticsIntake(options: AnalyticsIntakeOptions) {
  const { redis, prefix, logger } = options;
  const key = analyticsStreamKey(prefix);
  const memoryCheckEveryMs = options.memoryCheckEveryMs ?? MEMORY_CHECK_EVERY_MS;
  let lastMemoryCheck = 0;

  /**
   * Trims the oldest entries when the stream uses more memory than allowed. MEMORY USAGE
   * samples a few of the stream's nodes: cheap, and close enough for a bound.
   */
  const boundMemory = async () => {
    const used = Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '5'));
    if (!(used > options.maxStreamBytes)) return;
    const length = await redis.xlen(key);
    // Down to 90 % of the bound, so the next check does not trim again at once.
    const keep = Math.floor((length * options.maxStreamBytes * 0.9) / used);
    await redis.xtrim(key, 'MAXLEN', '~', keep);
    logger.warn({ usedBytes: used, entries: length, kept: keep }, 'analytics stream over its memory bound: oldest entries dropped');
  };

  return {
    async enqueue(events: AnalyticsEvent[], origin: { ipAddress: string | null; clientKey: string }) {
      const now = Date.now();
      const ingested: IngestedEvent[] = events.map(({ type, eventId, occurredAt, ...data }) => ({
        type,
        eventId: eventId ?? randomUUID(),
        at: storedTime(occurredAt, now).toISOString(),
        ipAddress: origin.ipAddress,
        data,
      }));
      const transaction = redis
        .multi()
        .xadd(key, 'MAXLEN', '~', ANALYTICS_STREAM_MAX_LENGTH, '*', ANALYTICS_ENTRY_FIELD, JSON.stringify(ingested))
        .xtrim(key, 'MINID', '~', now - ANALYTICS_STREAM_MAX_AGE_MS);
      recordPresence(transaction, prefix, origin.clientKey, pagesOf(events), now);
      const results = await withTimeout(transaction.exec(), 2000, 'Redis');
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('analytics transaction discarded');

      if (now - lastMemoryCheck >= memoryCheckEveryMs) {
        lastMemoryCheck = now;
        // The events are queued: a failed measurement only waits for the next one.
        await boundMemory().catch((error: unknown) =>
          logger.warn({ err: (error as Error).message }, 'analytics stream memory not measured'),
        );
      }
      return ingested.length;
    },
  };
}
