import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { apiMessages } from '@guida/shared/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_ENTRY_FIELD, analyticsStreamKey } from '@guida/shared/jobs/analytics-stream';
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
