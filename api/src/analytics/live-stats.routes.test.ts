import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

let api: TestApi;

beforeAll(async () => {
  // No cache: each call sees what is stored right now.
  api = await createTestApi({ FREE_PLACES_TOTAL: '100', LIVE_STATS_CACHE_SECONDS: '0' });
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

describe('GET /api/live-stats', () => {
  it('reports exactly what is stored', async () => {
    // Sessions: A and B active on /trading-old, C active elsewhere, D active 10 minutes ago only.
    await event('page_views', { session_id: 'session-A', path: '/trading-old', timestamp: ago(1) });
    await event('section_views', { session_id: 'session-B', section: 'hero', time_spent: 5, path: '/trading-old', timestamp: ago(2) });
    await event('conversion_funnel', { session_id: 'session-C', step: 'landing', metadata: { path: '/' }, timestamp: ago(3) });
    await event('page_views', { session_id: 'session-A', path: '/', timestamp: ago(4) });
    await event('page_views', { session_id: 'session-D', path: '/trading-old', timestamp: ago(10) });

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
    // Only sent or delivered SMS, newest first, with time and country and nothing else.
    expect(response.body.recentDeliveries.map((delivery: { country: string }) => delivery.country)).toEqual(['CH', 'IT', 'IT']);
    expect(Object.keys(response.body.recentDeliveries[0]).sort()).toEqual(['at', 'country']);
  });

  it('hides the places figure when no cap is configured, and refuses odd paths', async () => {
    const uncapped = await createTestApi();
    try {
      const response = await request(uncapped.app).get('/api/live-stats?path=/');
      expect(response.body).toMatchObject({ placesRemaining: null, placesTotal: null, visitorsOnline: 0 });
      expect(response.headers['cache-control']).toBe('public, max-age=5');
      expect((await request(uncapped.app).get('/api/live-stats?path=nope')).status).toBe(400);
    } finally {
      await uncapped.close();
    }
  });
});
