import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { apiMessages } from '@guida/shared/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ANALYTICS_ENTRY_FIELD,
  ANALYTICS_STREAM_MAX_AGE_MS,
  analyticsStreamKey,
} from '@guida/shared/jobs/analytics-stream';
import { analyticsMessages } from '@guida/shared/messages';
import type { IngestedEvent } from '@guida/shared/schemas/analytics';
import { freePort } from '@guida/testing/free-port';
import { createTestApi, type TestApi } from '../testing/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});
afterEach(async () => {
  await api.deps.redis.del(analyticsStreamKey(api.prefix));
});

const session = 'sessione-di-prova-0001';

async function streamed(): Promise<IngestedEvent[]> {
  const entries = (await api.deps.redis.xrange(analyticsStreamKey(api.prefix), '-', '+')) as [string, string[]][];
  return entries.flatMap(([, fields]) => JSON.parse(fields[fields.indexOf(ANALYTICS_ENTRY_FIELD) + 1]!) as IngestedEvent[]);
}

describe('single-event endpoints of the spec', () => {
  it.each([
    ['page-view', { sessionId: session, path: '/', referrer: null, userAgent: 'UA', language: 'it-IT', screenResolution: '390x844', device: 'Mobile', browser: 'Chrome', os: 'Android' }],
    ['conversion', { sessionId: session, step: 'form_view', metadata: { path: '/', utm_source: 'google' } }],
    ['section-view', { sessionId: session, section: 'hero', timeSpent: 12 }],
    ['form-interaction', { sessionId: session, action: 'start_typing', fieldName: 'nome', timeOnPage: 4, errorMessage: null }],
  ])('accepts a %s with 202 and queues it with a truncated IP', async (type, body) => {
    const response = await request(api.app).post(`/api/analytics/${type}`).set('X-Forwarded-For', '203.0.113.77').send(body);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ accepted: 1 });
    const [event] = await streamed();
    expect(event).toMatchObject({ type, ipAddress: '203.0.113.0', data: { sessionId: session } });
    expect(event!.eventId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST /api/analytics/batch', () => {
  it('queues a batch as one stream entry, keeping client ids and plausible client times', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const recent = new Date(Date.now() - 60_000).toISOString();
    const response = await request(api.app)
      .post('/api/analytics/batch')
      .send({
        events: [
          { type: 'page-view', eventId: ids[0], sessionId: session, path: '/oro-svizzera', occurredAt: recent },
          { type: 'conversion', eventId: ids[1], sessionId: session, step: 'landing', occurredAt: '2001-01-01T00:00:00Z' },
          { type: 'section-view', eventId: ids[2], sessionId: session, section: 'hero', timeSpent: 3 },
        ],
      });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ accepted: 3 });
    const entries = await api.deps.redis.xlen(analyticsStreamKey(api.prefix));
    expect(entries).toBe(1);
    const events = await streamed();
    expect(events.map((event) => event.eventId)).toEqual(ids);
    expect(events[0]!.at).toBe(recent);
    // An implausible client time (years ago) is replaced by the time of arrival.
    expect(Math.abs(Date.parse(events[1]!.at) - Date.now())).toBeLessThan(10_000);
  });

  it('refuses text/plain, which any other site can post (the tracker sends JSON)', async () => {
    const response = await request(api.app)
      .post('/api/analytics/batch')
      .set('Content-Type', 'text/plain;charset=UTF-8')
      .send(JSON.stringify({ events: [{ type: 'section-view', sessionId: session, section: 'faq', timeSpent: 7 }] }));
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ message: apiMessages.unsupportedContentType });
    expect(await streamed()).toEqual([]);
  });

  it('refuses invalid events, too many events and oversized bodies', async () => {
    const invalid = await request(api.app)
      .post('/api/analytics/batch')
      .send({ events: [{ type: 'conversion', sessionId: session, step: 'acquisto' }] });
    expect(invalid.status).toBe(400);
    const tooMany = await request(api.app)
      .post('/api/analytics/batch')
      .send({ events: Array.from({ length: 101 }, () => ({ type: 'section-view', sessionId: session, section: 'a', timeSpent: 1 })) });
    expect(tooMany.status).toBe(400);
    const huge = await request(api.app)
      .post('/api/analytics/batch')
      .send({ events: [{ type: 'page-view', sessionId: session, path: `/${'x'.repeat(70_000)}` }] });
    expect(huge.status).toBe(413);
    expect(await streamed()).toEqual([]);
  });
});

describe('with Redis down', () => {
  it('answers 503 in Italian (the browser only logs it)', async () => {
    const down = await createTestApi({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const response = await request(down.app).post('/api/analytics/section-view').send({ sessionId: session, section: 'a', timeSpent: 1 });
      expect(response.status).toBe(503);
      expect(response.body.message).toMatch(/non disponibile/);
    } finally {
      await down.close();
    }
  });
});

describe('what an event may hold', () => {
  it('refuses session ids shorter than the spec\'s 21 characters and texts beyond their cap, in Italian', async () => {
    const short = await request(api.app).post('/api/analytics/page-view').send({ sessionId: 'p1234567', path: '/' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ sessionId: analyticsMessages.sessionId });
    const longPath = await request(api.app).post('/api/analytics/page-view').send({ sessionId: session, path: `/${'a'.repeat(300)}` });
    expect(longPath.status).toBe(400);
    expect(longPath.body.errors).toEqual({ path: analyticsMessages.tooLong });
    const longSection = await request(api.app)
      .post('/api/analytics/section-view')
      .send({ sessionId: session, section: 'x'.repeat(51), timeSpent: 1 });
    expect(longSection.status).toBe(400);
    expect(await streamed()).toEqual([]);
  });

  it('queues paths and referrers without query string, fragment or a token path', async () => {
    const response = await request(api.app)
      .post('/api/analytics/batch')
      .send({
        events: [
          { type: 'page-view', sessionId: session, path: '/?utm_source=x#form', referrer: 'https://guida.example/gdpr/conferma/SEGRETO-123?a=1' },
          { type: 'page-view', sessionId: session, path: '/oro-svizzera', referrer: 'https://guida.example/trading-old?gclid=abc#top' },
          { type: 'conversion', sessionId: session, step: 'landing', metadata: { path: '/etf-vs-oro?x=1', referrer: 'https://www.google.com/search?q=oro' } },
        ],
      });
    expect(response.status).toBe(202);
    const [home, gold, landing] = await streamed();
    expect(home!.data).toMatchObject({ path: '/', referrer: 'https://guida.example' });
    expect(gold!.data).toMatchObject({ path: '/oro-svizzera', referrer: 'https://guida.example/trading-old' });
    expect(landing!.data.metadata).toEqual({ path: '/etf-vs-oro', referrer: 'https://www.google.com', utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null, hero_variant: null });
  });
});

describe('the stream is bounded', () => {
  it('by age: entries older than the bound go when new events arrive', async () => {
    const key = analyticsStreamKey(api.prefix);
    const old = Date.now() - ANALYTICS_STREAM_MAX_AGE_MS - 60_000;
    const pipeline = api.deps.redis.pipeline();
    for (let index = 0; index < 500; index += 1) pipeline.xadd(key, `${old + index}-0`, ANALYTICS_ENTRY_FIELD, '[]');
    await pipeline.exec();
    await request(api.app).post('/api/analytics/section-view').send({ sessionId: session, section: 'a', timeSpent: 1 }).expect(202);
    // Trimmed by whole stream nodes: at most the node the new entry joined is left of the old ones.
    expect(await api.deps.redis.xlen(key)).toBeLessThanOrEqual(101);
    expect(await streamed()).toHaveLength(1);
  });

  it('by memory: beyond ANALYTICS_STREAM_MAX_MB the oldest entries go', async () => {
    const small = await createTestApi({ ANALYTICS_STREAM_MAX_MB: '1' });
    try {
      const key = analyticsStreamKey(small.prefix);
      const entry = JSON.stringify([{ filler: 'x'.repeat(2000) }]);
      const pipeline = small.deps.redis.pipeline();
      for (let index = 0; index < 1500; index += 1) pipeline.xadd(key, '*', ANALYTICS_ENTRY_FIELD, entry);
      await pipeline.exec();
      const usage = async () => Number(await small.deps.redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
      expect(await usage()).toBeGreaterThan(2 * 1024 * 1024);
      await request(small.app).post('/api/analytics/section-view').send({ sessionId: session, section: 'a', timeSpent: 1 }).expect(202);
      expect(await usage()).toBeLessThanOrEqual(1.1 * 1024 * 1024);
      expect(await small.deps.redis.xlen(key)).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });
});

describe('daily byte budget per client', () => {
  it('refuses a client beyond ANALYTICS_DAILY_MB_PER_CLIENT with 429 in Italian, not its neighbours', async () => {
    const budgeted = await createTestApi({ ANALYTICS_DAILY_MB_PER_CLIENT: '1' });
    try {
      // About 40 KB a batch: the 1 MB of the day is spent after some 26 batches.
      const events = Array.from({ length: 100 }, () => ({ type: 'section-view', sessionId: session, section: 'x'.repeat(50), timeSpent: 1, path: `/${'p'.repeat(250)}` }));
      const send = (ip: string) => request(budgeted.app).post('/api/analytics/batch').set('X-Forwarded-For', ip).send({ events });
      let accepted = 0;
      let refused: request.Response | undefined;
      while (!refused && accepted < 100) {
        const response = await send('2001:db8:1:2::1');
        if (response.status === 202) accepted += 1;
        else refused = response;
      }
      expect(accepted).toBeGreaterThanOrEqual(20);
      expect(accepted).toBeLessThanOrEqual(27);
      expect(refused!.status).toBe(429);
      expect(refused!.body.message).toBe(analyticsMessages.dailyBudgetExceeded);
      expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(3600);
      // Another address of the same /64 is the same client; another network is not.
      expect((await send('2001:db8:1:2::ffff')).status).toBe(429);
      expect((await send('2001:db8:1:3::1')).status).toBe(202);
    } finally {
      await budgeted.close();
    }
  });

  it('is never stretched by compression: compressed batches are refused and charged nothing, plain ones at their size', async () => {
    const budgeted = await createTestApi({ ANALYTICS_DAILY_MB_PER_CLIENT: '1', ANALYTICS_RATE_LIMIT_PER_IP: '10000' });
    try {
      // About 40 KB of JSON a batch that gzip makes about 1 KB: 300 of them, 12 MB as parsed.
      const events = Array.from({ length: 100 }, () => ({ type: 'section-view', sessionId: session, section: 'x'.repeat(50), timeSpent: 1, path: `/${'p'.repeat(250)}` }));
      const json = Buffer.from(JSON.stringify({ events }));
      const compressed = { gzip: gzipSync(json), deflate: deflateSync(json), br: brotliCompressSync(json) };
      expect(compressed.gzip.length * 20).toBeLessThan(json.length);
      const ip = '2001:db8:5:6::1';
      const statuses = new Map<number, number>();
      for (let n = 0; n < 300; n += 1) {
        const [encoding, body] = Object.entries(compressed)[n % 3]!;
        const response = await request(budgeted.app)
          .post('/api/analytics/batch')
          .set('X-Forwarded-For', ip)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          // The compressed bytes as they are (superagent would JSON-encode a Buffer).
          .serialize((bytes: unknown) => bytes as string)
          .send(body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (n === 0) expect(response.body).toEqual({ message: apiMessages.compressedBody });
      }
      expect(Object.fromEntries(statuses)).toEqual({ 415: 300 });
      expect(await budgeted.deps.redis.xlen(analyticsStreamKey(budgeted.prefix))).toBe(0);

      // The whole megabyte is still there, spent on what is stored: about 26 plain batches.
      let accepted = 0;
      for (; accepted < 100; accepted += 1) {
        const response = await request(budgeted.app).post('/api/analytics/batch').set('X-Forwarded-For', ip).send({ events });
        if (response.status !== 202) {
          expect(response.status).toBe(429);
          break;
        }
      }
      expect(accepted * json.length).toBeLessThanOrEqual(1024 * 1024);
      expect((accepted + 1) * json.length).toBeGreaterThan(1024 * 1024);
    } finally {
      await budgeted.close();
    }
  });

  it('charges a chunked body (no Content-Length) at the size it was read', async () => {
    const budgeted = await createTestApi({ ANALYTICS_DAILY_MB_PER_CLIENT: '1' });
    const server = budgeted.app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      // Whitespace JSON.parse drops: the bytes received are what is charged.
      const padded = `{"events":[{"type":"section-view","sessionId":"${session}","section":"faq","timeSpent":1}]${' '.repeat(60_000)}}`;
      const sendChunked = () =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/analytics/batch', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.write(padded.slice(0, 30_000));
          req.end(padded.slice(30_000));
        });
      const statuses: number[] = [];
      for (let n = 0; n < 20; n += 1) statuses.push(await sendChunked());
      // 1 MB / 60 KB: 17 batches.
      expect(statuses.filter((status) => status === 202)).toHaveLength(Math.floor((1024 * 1024) / padded.length));
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await budgeted.close();
    }
  });
});
