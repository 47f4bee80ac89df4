import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  ANALYTICS_CONSUMER_GROUP,
  ANALYTICS_DEAD_LETTER_RAW_CHARS,
  ANALYTICS_DEAD_LETTERS_KEPT,
  ANALYTICS_ENTRY_FIELD,
  analyticsDeadLetterCountKey,
  analyticsDeadLettersKey,
  analyticsStreamKey,
  type AnalyticsDeadLetter,
} from '@guida/shared/jobs/analytics-stream';
import { ANALYTICS_EVENT_TYPES, type IngestedEvent } from '@guida/shared/schemas/analytics';
import type { Logger } from '@guida/shared/server/logger';
import { insertAnalyticsEvents } from './analytics.repo';

/** What the worker trusts of a stream event (the API validated the rest). */
const ingestedEventSchema = z.object({
  type: z.enum(ANALYTICS_EVENT_TYPES),
  eventId: z.uuid(),
  at: z.iso.datetime({ offset: true }),
  ipAddress: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});

/**
 * PostgreSQL refused the data itself (classes 22 data exception, e.g. a NUL byte; 23
 * integrity constraint; 54 program limit, e.g. an index row too big): the same event
 * would be refused forever. Any other error (connection, shutdown, lock) may pass.
 */
function refusesTheData(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code);
}

const cut = (text: string) => text.slice(0, ANALYTICS_DEAD_LETTER_RAW_CHARS);

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

/** Fields are null for an entry deleted (trimmed) while it was pending. */
type StreamEntry = [id: string, fields: string[] | null];
interface StoredEvent {
  entryId: string;
  event: IngestedEvent;
}
/** Stream entries, the events they hold (checked), and what could not be read. */
interface Batch {
  entries: StreamEntry[];
  events: StoredEvent[];
  deadLetters: AnalyticsDeadLetter[];
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
 * nothing twice (unique client event ids). Nothing in an entry can stop it: events
 * PostgreSQL refuses are found by splitting the batch and set aside as dead letters.
 */
export function startAnalyticsConsumer(options: AnalyticsConsumerOptions) {
  const { redis, db, logger } = options;
  const key = analyticsStreamKey(options.prefix);
  const deadLettersKey = analyticsDeadLettersKey(options.prefix);
  const deadLetterCountKey = analyticsDeadLetterCountKey(options.prefix);
  const consumer = `${hostname()}:${process.pid}`;
  const batchSize = options.batchSize ?? 200;
  const blockMs = options.blockMs ?? 1000;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  let running = true;
  let lastClaim = 0;
  let stored = 0;

  const deadLetter = (entryId: string, reason: string, raw: string): AnalyticsDeadLetter => ({
    at: new Date().toISOString(),
    entryId,
    reason: cut(reason),
    raw: cut(raw),
  });

  const parse = (entries: StreamEntry[]): Batch => {
    const batch: Batch = { entries, events: [], deadLetters: [] };
    for (const [entryId, fields] of entries) {
      // Trimmed from the stream while pending: nothing left to store, only to acknowledge.
      if (fields === null) continue;
      const raw = fields[fields.indexOf(ANALYTICS_ENTRY_FIELD) + 1] ?? '';
      let items: unknown;
      try {
        items = JSON.parse(raw);
      } catch {
        items = null;
      }
      if (!Array.isArray(items)) {
        batch.deadLetters.push(deadLetter(entryId, 'not a JSON array of events', raw));
        continue;
      }
      for (const item of items) {
        const event = ingestedEventSchema.safeParse(item);
        if (event.success) batch.events.push({ entryId, event: event.data });
        else batch.deadLetters.push(deadLetter(entryId, 'not an analytics event', JSON.stringify(item) ?? ''));
      }
    }
    return batch;
  };

  /**
   * Inserts the events; when PostgreSQL refuses the data, inserts each half on its own,
   * down to single events, and returns those it refuses alone. A replayed half inserts
   * nothing twice (unique event ids).
   */
  const insertOrSplit = async (events: StoredEvent[]): Promise<{ inserted: number; refused: AnalyticsDeadLetter[] }> => {
    if (events.length === 0) return { inserted: 0, refused: [] };
    try {
      return { inserted: await insertAnalyticsEvents(db, events.map(({ event }) => event)), refused: [] };
    } catch (error) {
      if (!refusesTheData(error)) throw error;
      if (events.length === 1) {
        const [{ entryId, event }] = events as [StoredEvent];
        const { code, message } = error as { code: string; message: string };
        return { inserted: 0, refused: [deadLetter(entryId, `${code}: ${message}`, JSON.stringify(event))] };
      }
      const middle = Math.ceil(events.length / 2);
      const first = await insertOrSplit(events.slice(0, middle));
      const second = await insertOrSplit(events.slice(middle));
      return { inserted: first.inserted + second.inserted, refused: [...first.refused, ...second.refused] };
    }
  };

  const store = async (batch: Batch) => {
    if (batch.entries.length === 0) return;
    const { inserted, refused } = await insertOrSplit(batch.events);
    stored += inserted;
    const deadLetters = [...batch.deadLetters, ...refused];
    const ids = batch.entries.map(([id]) => id);
    const transaction = redis.multi().xack(key, ANALYTICS_CONSUMER_GROUP, ...ids).xdel(key, ...ids);
    if (deadLetters.length > 0) {
      // Counted and kept with the acknowledgement: an entry is either pending or accounted for.
      transaction
        .lpush(deadLettersKey, ...deadLetters.map((letter) => JSON.stringify(letter)))
        .ltrim(deadLettersKey, 0, ANALYTICS_DEAD_LETTERS_KEPT - 1)
        .incrby(deadLetterCountKey, deadLetters.length);
    }
    await transaction.exec();
    if (deadLetters.length > 0) {
      logger.error({ events: deadLetters.length }, 'analytics events set aside as dead letters (see the admin queues tab)');
    }
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
    await store(parse(entries));
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
