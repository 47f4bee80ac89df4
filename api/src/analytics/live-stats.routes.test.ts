import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsMessages } from '@guida/shared/messages';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

let api: TestApi;

beforeAll(async () => {
  // No cache: each call sees what is stored right now; every count of people answered.
  api = await createTestApi({ FREE_PLACES_TOTAL: '100', LIVE_STATS_CACHE_SECONDS: '0', SOCIAL_PROOF_MIN_OTHERS: '0' });
});
afterAll(async () => {
  await api.close();
});

const ago = (minutes: number) => api.db.raw(`now() - make_interval(mins => ${minutes})`);
const event = (table: string, row: Record<string, unknown>) => api.db(table).insert({ event_id: randomUUID(), ...row });

async function lead(country: 'IT' | 'CH', minutesAgo: number, smsStatus = 'sent') {
  const created = await request(api.app)
    .post('/api/ebook-request')
    .send(validLead(country === 'CH' ? { telefono: `+4179${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` } : {}));
  await api.db('ebook_requests').where({ id: created.body.id }).update({ created_at: ago(minutesAgo) });
  await api.db('sms_messages').where({ lead_id: created.body.id }).update({ status: smsStatus, sent_at: ago(minutesAgo) });
  return created.body.id as number;
}

const sessionIds = (count: number) => Array.from({ length: count }, (_, index) => `sessione-inventata-${String(index).padStart(4, '0')}`);

/** One analytics request from `ip` with a page view per session id. */
function visit(target: TestApi, ip: string, path: string, sessions: string[]) {
  return request(target.app)
    .post('/api/analytics/batch')
    .set('X-Forwarded-For', ip)
    .send({ events: sessions.map((sessionId) => ({ type: 'page-view', sessionId, path })) })
    .expect(202);
}

describe('GET /api/live-stats', () => {
  it('reports exactly what is stored, and the clients the API saw online', async () => {
    // Clients: A and B on /trading-old, C elsewhere.
    await visit(api, '203.0.113.1', '/trading-old', sessionIds(1));
    await visit(api, '2001:db8:aa:1::1', '/trading-old', sessionIds(1));
    await visit(api, '198.51.100.7', '/', sessionIds(1));

    const recent = await lead('CH', 30);
    await lead('IT', 90, 'delivered');
    await lead('IT', 150);
    await lead('IT', 60, 'failed');
    await api.db('guide_downloads').insert([
      { lead_id: recent, downloaded_at: ago(20) },
      { lead_id: recent, downloaded_at: ago(200) },
    ]);

    const response = await request(api.app).get('/api/live-stats?path=/trading-old');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      visitorsOnline: 3,
      readersOfPage: 2,
      guideRequestsLast2h: 3,
      downloadsLast2h: 1,
      placesTotal: 100,
      placesRemaining: 96,
    });
    // Only sent or delivered SMS, newest first, with time, country and whether the phone
    // reported it delivered, and nothing else.
    expect(
      response.body.recentDeliveries.map((delivery: { country: string; delivered: boolean }) => [delivery.country, delivery.delivered]),
    ).toEqual([
      ['CH', false],
      ['IT', true],
      ['IT', false],
    ]);
    expect(Object.keys(response.body.recentDeliveries[0]).sort()).toEqual(['at', 'country', 'delivered']);
  });

  it('cannot be inflated: one request with 50 invented sessions, or one client with many, is one visitor', async () => {
    const crowd = await createTestApi({ LIVE_STATS_CACHE_SECONDS: '0', SOCIAL_PROOF_MIN_OTHERS: '0' });
    try {
      const figures = async () => (await request(crowd.app).get('/api/live-stats?path=/').expect(200)).body as LiveStats;
      expect(await figures()).toMatchObject({ visitorsOnline: 0, readersOfPage: 0 });
      await visit(crowd, '203.0.113.9', '/', sessionIds(50));
      expect(await figures()).toMatchObject({ visitorsOnline: 1, readersOfPage: 1 });
      // The same client again with other sessions, and from other addresses of its IPv6 /64.
      await visit(crowd, '203.0.113.9', '/', sessionIds(50).map((id) => `${id}-altra`));
      for (let host = 1; host <= 20; host += 1) await visit(crowd, `2001:db8:5:6::${host.toString(16)}`, '/', sessionIds(5));
      expect(await figures()).toMatchObject({ visitorsOnline: 2, readersOfPage: 2 });
      // Events that were never sent to the API (written straight to the tables) count for nothing.
      await event('page_views', { session_id: 'session-stored-only', path: '/', timestamp: ago(1) });
      expect((await figures()).visitorsOnline).toBe(2);
    } finally {
      await crowd.close();
    }
  });

  it('answers a count of people only from 3 others besides the visitor up (the default), or the configured threshold', async () => {
    const [byDefault, strict] = await Promise.all([
      createTestApi({ LIVE_STATS_CACHE_SECONDS: '0' }),
      createTestApi({ LIVE_STATS_CACHE_SECONDS: '0', SOCIAL_PROOF_MIN_OTHERS: '5' }),
    ]);
    try {
      const figures = async (target: TestApi) =>
        (await request(target.app).get('/api/live-stats?path=/oro-svizzera').expect(200)).body as LiveStats;
      const arrive = (count: number, from: number) =>
        Promise.all(
          [byDefault, strict].flatMap((target) =>
            Array.from({ length: count }, (_, index) => visit(target, `198.51.100.${from + index}`, '/oro-svizzera', sessionIds(1))),
          ),
        );
      // The visitor alone, then with two others: nobody is shown.
      await arrive(1, 1);
      expect(await figures(byDefault)).toMatchObject({ visitorsOnline: 0, readersOfPage: 0 });
      await arrive(2, 2);
      expect(await figures(byDefault)).toMatchObject({ visitorsOnline: 0, readersOfPage: 0 });
      // Three others: the real counts; elsewhere on the site counts for the site only.
      await arrive(1, 4);
      expect(await figures(byDefault)).toMatchObject({ visitorsOnline: 4, readersOfPage: 4 });
      await visit(byDefault, '198.51.100.90', '/', sessionIds(1));
      expect(await figures(byDefault)).toMatchObject({ visitorsOnline: 5, readersOfPage: 4 });
      // A stricter threshold: five others.
      expect(await figures(strict)).toMatchObject({ visitorsOnline: 0, readersOfPage: 0 });
      await arrive(2, 5);
      expect(await figures(strict)).toMatchObject({ visitorsOnline: 6, readersOfPage: 6 });
    } finally {
      await Promise.all([byDefault.close(), strict.close()]);
    }
  });

  it('answers the site\'s pages only, cached per page, and limits each client', async () => {
    const limited = await createTestApi({ LIVE_STATS_RATE_LIMIT_PER_IP: '3' });
    try {
      const response = await request(limited.app).get('/api/live-stats?path=/');
      expect(response.body).toMatchObject({ placesRemaining: null, placesTotal: null, visitorsOnline: 0 });
      expect(response.headers['cache-control']).toBe('public, max-age=5');
      const unknown = await request(limited.app).get(`/api/live-stats?path=${encodeURIComponent('/nope\u0000')}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(analyticsMessages.unknownPage);
      expect((await request(limited.app).get('/api/live-stats?path=/&path=/oro-svizzera')).status).toBe(400);
      const limitedOut = await request(limited.app).get('/api/live-stats?path=/');
      expect(limitedOut.status).toBe(429);
      expect(limitedOut.body.message).toMatch(/Riprova/);
      // Another client is not limited by the first one.
      expect((await request(limited.app).get('/api/live-stats?path=/').set('X-Forwarded-For', '192.0.2.44')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
