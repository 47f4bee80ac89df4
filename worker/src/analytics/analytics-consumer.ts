import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  ANALYTICS_CONSUMER_GROUP,
  ANALYTICS_ENTRY_FIELD,
  analyticsStreamKey,
} from '@guida/shared/jobs/analytics-stream';
import { ANALYTICS_EVENT_TYPES, type IngestedEvent } from '@guida/shared/schemas/analytics';
import type { Logger } from '@guida/shared/server/logger';
import { insertAnalyticsEvents } from './analytics.repo';

/** What the worker trusts of a stream entry (the API validated the rest). */
const ingestedEventsSchema = z.array(
  z.object({
    type: z.enum(ANALYTICS_EVENT_TYPES),
    eventId: z.uuid(),
    at: z.iso.datetime({ offset: true }),
    ipAddress: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
  }),
);

export interface AnalyticsConsumerOptions {
  /** A connection of its own: XREADGROUP blocks it. */
  redis: Redis;
  db: Knex;
  logger: Logger;
  prefix: string;
  /** Stream entries read at once (each holds one request's events). */
  batchSize?: number;
  blockMs?: number;
  /** Entries another consumer left unacknowledged this long are taken over (it died). */
  claimIdleMs?: number;
}

type StreamEntry = [id: string, fields: string[]];
/** Stream entries and the events they hold, checked. */
interface Batch {
  entries: StreamEntry[];
  events: IngestedEvent[];
}

/**
 * The entries of one stream in an XREADGROUP reply: RESP2 answers [[key, entries]], RESP3
 * (ioredis 6's default) a map that ioredis flattens to [key, entries].
 */
function entriesOf(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply) || reply.length === 0) return [];
  const [first, second] = reply as unknown[];
  if (Array.isArray(first)) return ((first as unknown[])[1] as StreamEntry[] | undefined) ?? [];
  return (second as StreamEntry[] | undefined) ?? [];
}

/**
 * Reads the analytics stream with a consumer group, inserts the events in batches and
 * acknowledges (and deletes) the entries only once they are stored: a worker killed
 * mid-batch loses nothing, another one claims its entries; a batch stored twice inserts
 * nothing twice (unique client event ids).
 */
export function startAnalyticsConsumer(options: AnalyticsConsumerOptions) {
  const { redis, db, logger } = options;
  const key = analyticsStreamKey(options.prefix);
  const consumer = `${hostname()}:${process.pid}`;
  const batchSize = options.batchSize ?? 200;
  const blockMs = options.blockMs ?? 1000;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  let running = true;
  let lastClaim = 0;
  let stored = 0;

  const parse = (entries: StreamEntry[]): Batch => {
    const events: IngestedEvent[] = [];
    for (const [id, fields] of entries) {
      const raw = fields[fields.indexOf(ANALYTICS_ENTRY_FIELD) + 1];
      try {
        events.push(...ingestedEventsSchema.parse(JSON.parse(raw ?? 'null')));
      } catch {
        // A malformed entry would block the stream forever: drop it, loudly.
        logger.error({ entryId: id }, 'malformed analytics stream entry dropped');
      }
    }
    return { entries, events };
  };

  const store = async ({ entries, events }: Batch) => {
    if (entries.length === 0) return;
    const inserted = await insertAnalyticsEvents(db, events);
    stored += inserted;
    const ids = entries.map(([id]) => id);
    await redis.multi().xack(key, ANALYTICS_CONSUMER_GROUP, ...ids).xdel(key, ...ids).exec();
  };

  const ensureGroup = async () => {
    try {
      await redis.xgroup('CREATE', key, ANALYTICS_CONSUMER_GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
    }
  };

  const read = async (id: '>' | '0') => {
    const reply = await redis.call(
      'XREADGROUP',
      'GROUP',
      ANALYTICS_CONSUMER_GROUP,
      consumer,
      'COUNT',
      batchSize,
      ...(id === '>' ? ['BLOCK', blockMs] : []),
      'STREAMS',
      key,
      id,
    );
    return entriesOf(reply);
  };

  const claimAbandoned = async () => {
    if (Date.now() - lastClaim < claimIdleMs) return;
    lastClaim = Date.now();
    const [, entries] = (await redis.call(
      'XAUTOCLAIM',
      key,
      ANALYTICS_CONSUMER_GROUP,
      consumer,
      claimIdleMs,
      '0',
      'COUNT',
      batchSize,
    )) as [string, StreamEntry[]];
    if (entries.length > 0) logger.warn({ entries: entries.length }, 'claimed analytics entries of a stopped worker');
    await store(parse(entries.filter(([, fields]) => fields !== null)));
  };

  // Settled with the error instead of rejecting: nothing may reject unobserved while a
  // batch is being stored.
  const readNext = (): Promise<Batch | Error> =>
    read('>').then(parse, (error: unknown) => (error instanceof Error ? error : new Error(String(error))));

  const loop = (async () => {
    let failures = 0;
    let retryPending = true;
    let groupReady = false;
    /**
     * The next batch, read and checked while the current one is inserted, so the worker's
     * parsing and PostgreSQL's inserting overlap. Its entries are pending for this consumer
     * like the batch in hand: after a failure they are read again with our pending ones.
     */
    let next: Promise<Batch | Error> | null = null;
    // On stop, the batch already read is stored too.
    while (running || next) {
      try {
        // Again after a failure: a Redis restarted without persistence has lost the group.
        if (!groupReady) {
          await ensureGroup();
          groupReady = true;
        }
        let batch: Batch;
        if (retryPending) {
          // Our own unacknowledged entries first (a failed insert, or a restart), then new ones.
          batch = parse(await read('0'));
          retryPending = batch.entries.length > 0;
        } else {
          const fetched = await (next ?? readNext());
          next = null;
          if (fetched instanceof Error) throw fetched;
          batch = fetched;
        }
        if (running && !retryPending) next = readNext();
        await store(batch);
        await claimAbandoned();
        failures = 0;
      } catch (error) {
        next = null;
        groupReady = false;
        failures += 1;
        retryPending = true;
        logger.error({ err: (error as Error).message, failures }, 'analytics batch not stored; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 250 * 2 ** failures)));
      }
    }
  })();

  return {
    /** Rows inserted by this process so far. */
    stored: () => stored,
    /** Finishes the batch in hand, then stops. */
    async stop() {
      running = false;
      await loop;
    },
  };
}
