import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import {
  ANALYTICS_CONSUMER_GROUP,
  ANALYTICS_ENTRY_FIELD,
  analyticsDeadLetterCountKey,
  analyticsDeadLettersKey,
  analyticsStreamKey,
  type AnalyticsDeadLetter,
} from '@guida/shared/jobs/analytics-stream';
import type { IngestedEvent } from '@guida/shared/schemas/analytics';
import { createLogger } from '@guida/shared/server/logger';
import { testRedisUrl } from '@guida/testing/services';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { startAnalyticsConsumer } from './analytics-consumer';

let worker: TestWorker;
let redis: Redis;
const logger = createLogger({ service: 'analytics-test', level: 'silent' });

beforeAll(async () => {
  // No BullMQ workers: each test runs the consumers it needs.
  worker = await createTestWorker({}, { start: false });
  redis = new Redis(testRedisUrl());
});
afterAll(async () => {
  redis.disconnect();
  await worker.close();
});

const key = () => analyticsStreamKey(worker.config.REDIS_KEY_PREFIX);
const at = () => new Date().toISOString();
const append = (events: IngestedEvent[]) => redis.xadd(key(), '*', ANALYTICS_ENTRY_FIELD, JSON.stringify(events));
const deadLetters = async () =>
  (await redis.lrange(analyticsDeadLettersKey(worker.config.REDIS_KEY_PREFIX), 0, -1)).map(
    (item) => JSON.parse(item) as AnalyticsDeadLetter,
  );
const deadLetterCount = async () => Number(await redis.get(analyticsDeadLetterCountKey(worker.config.REDIS_KEY_PREFIX)));
const sectionView = (sessionId: string, section: string): IngestedEvent => ({
  type: 'section-view',
  eventId: randomUUID(),
  at: at(),
  ipAddress: null,
  data: { sessionId, section, timeSpent: 1 },
});
const rows = async (table: string, sessionId: string) =>
  (await worker.db(table).where({ session_id: sessionId }).count({ n: '*' }).first())!.n as number;

function consumer(claimIdleMs = 30_000, batchSize?: number) {
  return startAnalyticsConsumer({
    redis: new Redis(testRedisUrl()),
    db: worker.db,
    logger,
    prefix: worker.config.REDIS_KEY_PREFIX,
    blockMs: 100,
    claimIdleMs,
    ...(batchSize ? { batchSize } : {}),
  });
}

describe('analytics consumer', () => {
  it('stores every kind of event in its table and empties the stream', async () => {
    const session = `s-${randomUUID()}`;
    await append([
      {
        type: 'page-view',
        eventId: randomUUID(),
        at: at(),
        ipAddress: '203.0.113.0',
        data: { sessionId: session, path: '/oro-svizzera', referrer: null, device: 'Mobile', browser: 'Chrome', os: 'Android', language: 'it-CH', screenResolution: '390x844', userAgent: 'UA' },
      },
      { type: 'conversion', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, step: 'landing', metadata: { path: '/oro-svizzera', utm_source: 'google' } } },
      { type: 'section-view', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, section: 'hero', timeSpent: 9, path: '/oro-svizzera' } },
      { type: 'form-interaction', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, action: 'page_exit', fieldName: 'telefono', timeOnPage: 42, scrollDepth: 80, path: '/oro-svizzera' } },
    ]);
    const running = consumer();
    try {
      await waitFor(async () => (await rows('form_interactions', session)) === 1);
      expect(await worker.db('page_views').where({ session_id: session }).first()).toMatchObject({
        path: '/oro-svizzera',
        ip_address: '203.0.113.0',
        device: 'Mobile',
        screen_resolution: '390x844',
      });
      expect(await worker.db('conversion_funnel').where({ session_id: session }).first()).toMatchObject({
        step: 'landing',
        landing_path: '/oro-svizzera',
        utm_source: 'google',
      });
      expect(await worker.db('section_views').where({ session_id: session }).first()).toMatchObject({ section: 'hero', time_spent: 9 });
      expect(await worker.db('form_interactions').where({ session_id: session }).first()).toMatchObject({
        action: 'page_exit',
        field_name: 'telefono',
        time_on_page: 42,
        scroll_depth: 80,
      });
      await waitFor(async () => (await redis.xlen(key())) === 0);
    } finally {
      await running.stop();
    }
  });

  it('stores a replayed batch once', async () => {
    const session = `s-${randomUUID()}`;
    const batch: IngestedEvent[] = [
      { type: 'section-view', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, section: 'a', timeSpent: 1 } },
      { type: 'section-view', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, section: 'b', timeSpent: 2 } },
    ];
    await append(batch);
    await append(batch);
    const running = consumer();
    try {
      await waitFor(async () => (await redis.xlen(key())) === 0);
      expect(await rows('section_views', session)).toBe(2);
    } finally {
      await running.stop();
    }
  });

  it('loses nothing when a worker dies mid-batch: another one takes its entries over', async () => {
    const session = `s-${randomUUID()}`;
    await append([{ type: 'section-view', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, section: 'a', timeSpent: 1 } }]);
    // A worker reads the entry and dies before storing it: the entry stays pending under its name.
    await redis.xgroup('CREATE', key(), ANALYTICS_CONSUMER_GROUP, '0', 'MKSTREAM').catch(() => undefined);
    const read = await redis.call('XREADGROUP', 'GROUP', ANALYTICS_CONSUMER_GROUP, 'dead-worker', 'COUNT', 10, 'STREAMS', key(), '>');
    expect(read).not.toBeNull();
    expect(await rows('section_views', session)).toBe(0);

    const running = consumer(200);
    try {
      await waitFor(async () => (await rows('section_views', session)) === 1, { timeoutMs: 10_000 });
      await waitFor(async () => (await redis.xlen(key())) === 0);
    } finally {
      await running.stop();
    }
  });

  it('sets a malformed entry aside as a dead letter and goes on with the rest', async () => {
    const session = `s-${randomUUID()}`;
    const malformed = await redis.xadd(key(), '*', ANALYTICS_ENTRY_FIELD, '{not json');
    const notAnEvent = await redis.xadd(key(), '*', ANALYTICS_ENTRY_FIELD, JSON.stringify([{ type: 'acquisto' }]));
    await append([sectionView(session, 'a')]);
    const running = consumer();
    try {
      await waitFor(async () => (await rows('section_views', session)) === 1);
      await waitFor(async () => (await redis.xlen(key())) === 0);
      const letters = (await deadLetters()).filter((letter) => letter.entryId === malformed || letter.entryId === notAnEvent);
      expect(letters.map((letter) => letter.reason).sort()).toEqual(['not a JSON array of events', 'not an analytics event']);
    } finally {
      await running.stop();
    }
  });

  it('survives a poisoned entry: the refused events become dead letters, the rest is stored', async () => {
    const session = `s-${randomUUID()}`;
    const later = `s-${randomUUID()}`;
    // What the API queued before NULs were refused at the door: PostgreSQL refuses the
    // NUL in a text column and in a JSON column, so each whole batch fails at first.
    const poisonedPath: IngestedEvent = {
      type: 'page-view',
      eventId: randomUUID(),
      at: at(),
      ipAddress: null,
      data: { sessionId: session, path: '/\u0000' },
    };
    const poisonedMetadata: IngestedEvent = {
      type: 'conversion',
      eventId: randomUUID(),
      at: at(),
      ipAddress: null,
      data: { sessionId: session, step: 'landing', metadata: { path: '/', utm_source: 'x\u0000' } },
    };
    const before = await deadLetterCount();
    const good = Array.from({ length: 9 }, (_, index) => sectionView(session, `s${index}`));
    const poisoned = await append([...good.slice(0, 4), poisonedPath, ...good.slice(4, 7), poisonedMetadata, ...good.slice(7)]);
    await append([sectionView(later, 'after')]);
    const running = consumer();
    try {
      await waitFor(async () => (await rows('section_views', later)) === 1, { timeoutMs: 10_000 });
      expect(await rows('section_views', session)).toBe(9);
      await waitFor(async () => (await redis.xlen(key())) === 0);
      expect(await deadLetterCount()).toBe(before + 2);
      const letters = (await deadLetters()).filter((letter) => letter.entryId === poisoned);
      expect(letters.map((letter) => (JSON.parse(letter.raw) as IngestedEvent).eventId).sort()).toEqual(
        [poisonedPath.eventId, poisonedMetadata.eventId].sort(),
      );
      for (const letter of letters) expect(letter.reason).toMatch(/^22/);
      // Ingestion goes on after it.
      const afterwards = `s-${randomUUID()}`;
      await append([sectionView(afterwards, 'x')]);
      await waitFor(async () => (await rows('section_views', afterwards)) === 1);
    } finally {
      await running.stop();
    }
  });

  it('acknowledges a pending entry that was trimmed from the stream, and goes on', async () => {
    const session = `s-${randomUUID()}`;
    await redis.xgroup('CREATE', key(), ANALYTICS_CONSUMER_GROUP, '0', 'MKSTREAM').catch(() => undefined);
    const gone = await append([sectionView(session, 'gone')]);
    // This process's consumer read it, then the stream's bound deleted it.
    await redis.call('XREADGROUP', 'GROUP', ANALYTICS_CONSUMER_GROUP, `${hostname()}:${process.pid}`, 'COUNT', 10, 'STREAMS', key(), '>');
    await redis.xdel(key(), gone!);
    await append([sectionView(session, 'kept')]);
    const running = consumer();
    try {
      await waitFor(async () => (await rows('section_views', session)) === 1);
      await waitFor(async () => Number(((await redis.xpending(key(), ANALYTICS_CONSUMER_GROUP)) as [number])[0]) === 0);
    } finally {
      await running.stop();
    }
  });

  it('stores referrers and paths of old entries without query string, fragment or token path', async () => {
    const session = `s-${randomUUID()}`;
    await append([
      {
        type: 'page-view',
        eventId: randomUUID(),
        at: at(),
        ipAddress: null,
        data: { sessionId: session, path: '/?utm_source=x#top', referrer: 'https://guida.example/gdpr/conferma/SEGRETO123?x=1' },
      },
      {
        type: 'conversion',
        eventId: randomUUID(),
        at: at(),
        ipAddress: null,
        data: { sessionId: session, step: 'landing', metadata: { path: '/oro-svizzera?t=SEGRETO', referrer: 'https://www.google.com/search?q=guida' } },
      },
    ]);
    const running = consumer();
    try {
      await waitFor(async () => (await rows('conversion_funnel', session)) === 1);
      expect(await worker.db('page_views').where({ session_id: session }).first()).toMatchObject({
        path: '/',
        referrer: 'https://guida.example',
      });
      expect((await worker.db('conversion_funnel').where({ session_id: session }).first()).metadata).toEqual({
        path: '/oro-svizzera',
        referrer: 'https://www.google.com',
      });
    } finally {
      await running.stop();
    }
  });

  it('after a failed insert stores the batch in hand and the one read ahead, each event once', async () => {
    const session = `s-${randomUUID()}`;
    const sections = ['a', 'blocked', 'c', 'd', 'e'];
    // PostgreSQL fails one event until the trigger goes, as when the database is down
    // (an error that is not about the data: the batch is retried, not split).
    await worker.db.raw(`
      CREATE OR REPLACE FUNCTION refuse_blocked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.section = 'blocked' THEN RAISE EXCEPTION 'database unavailable' USING ERRCODE = '57P03'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_blocked BEFORE INSERT ON section_views FOR EACH ROW EXECUTE FUNCTION refuse_blocked();
    `);
    for (const section of sections) {
      await append([{ type: 'section-view', eventId: randomUUID(), at: at(), ipAddress: null, data: { sessionId: session, section, timeSpent: 1 } }]);
    }
    const pending = async () => Number(((await redis.xpending(key(), ANALYTICS_CONSUMER_GROUP)) as [number])[0]);
    // One entry a batch: while 'blocked' fails, the entry after it has been read ahead.
    const running = consumer(30_000, 1);
    try {
      await waitFor(async () => (await rows('section_views', session)) === 1 && (await pending()) === 2, { timeoutMs: 10_000 });
      await worker.db.raw('DROP TRIGGER refuse_blocked ON section_views');
      await waitFor(async () => (await redis.xlen(key())) === 0, { timeoutMs: 15_000 });
      const stored = await worker.db('section_views').where({ session_id: session }).orderBy('section').pluck('section');
      expect(stored).toEqual(sections);
    } finally {
      await worker.db.raw('DROP TRIGGER IF EXISTS refuse_blocked ON section_views');
      await running.stop();
    }
  });
});
