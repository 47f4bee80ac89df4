import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  ANALYTICS_ENTRY_FIELD,
  ANALYTICS_STREAM_MAX_LENGTH,
  analyticsStreamKey,
} from '@guida/shared/jobs/analytics-stream';
import type { AnalyticsEvent, IngestedEvent } from '@guida/shared/schemas/analytics';
import { withTimeout } from '@guida/shared/server/with-timeout';

const DAY_MS = 24 * 3600 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** The browser's time when plausible (batches arrive late), else the time we received it. */
function storedTime(occurredAt: string | undefined, now: number) {
  const at = occurredAt ? Date.parse(occurredAt) : Number.NaN;
  return Number.isFinite(at) && at > now - DAY_MS && at < now + CLOCK_SKEW_MS ? new Date(at) : new Date(now);
}

/**
 * Appends validated events to the analytics stream as one entry. The visitor's IP is
 * truncated before it leaves the API; events without a client id get a fresh one.
 */
export async function enqueueAnalyticsEvents(
  deps: { redis: Redis; prefix: string },
  events: AnalyticsEvent[],
  origin: { ipAddress: string | null },
) {
  const now = Date.now();
  const ingested: IngestedEvent[] = events.map(({ type, eventId, occurredAt, ...data }) => ({
    type,
    eventId: eventId ?? randomUUID(),
    at: storedTime(occurredAt, now).toISOString(),
    ipAddress: origin.ipAddress,
    data,
  }));
  await withTimeout(
    deps.redis.xadd(
      analyticsStreamKey(deps.prefix),
      'MAXLEN',
      '~',
      ANALYTICS_STREAM_MAX_LENGTH,
      '*',
      ANALYTICS_ENTRY_FIELD,
      JSON.stringify(ingested),
    ),
    2000,
    'Redis',
  );
  return ingested.length;
}
