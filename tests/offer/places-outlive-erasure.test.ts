/**
 * Places taken are never given back (decision 047): a lead erased on request or by the
 * retention keeps its place, and the place keeps nothing that names the person.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../../api/src/testing/test-api';
import { eraseLeads, leadsOfEmail } from '../../worker/src/gdpr';
import { createApplyRetention } from '../../worker/src/maintenance/apply-retention';
import { createTestWorker, type TestWorker } from '../../worker/src/testing/test-worker';

let api: TestApi;
let worker: TestWorker;

beforeAll(async () => {
  api = await createTestApi({ FREE_PLACES_TOTAL: '10', LIVE_STATS_CACHE_SECONDS: '0' });
  // The worker on the API's database and Redis prefix, as in production; its jobs are not run.
  worker = await createTestWorker({ DATABASE_URL: api.config.DATABASE_URL, REDIS_KEY_PREFIX: api.prefix }, { start: false });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

const placesRemaining = async () => (await request(api.app).get('/api/live-stats?path=/').expect(200)).body.placesRemaining as number;

describe('places and erasure', () => {
  it('an erased lead keeps its place, on request or by retention, and the place names nobody', async () => {
    const erasedOnRequest = { email: 'chiara.erasa@example.it', telefono: uniqueItalianMobile() };
    const erasedByRetention = { email: 'piero.vecchio@example.it', telefono: uniqueItalianMobile() };
    for (const person of [erasedOnRequest, erasedByRetention]) {
      await request(api.app).post('/api/ebook-request').send(validLead(person)).expect(201);
    }
    await request(api.app).post('/api/ebook-request').send(validLead()).expect(201);
    expect(await placesRemaining()).toBe(7);

    // A deletion request, as the worker carries it out.
    await worker.deps.db.transaction(async (trx) => {
      const leads = await leadsOfEmail(trx, erasedOnRequest.email);
      await eraseLeads(trx, leads, { reason: 'request', person: { email: erasedOnRequest.email } });
    });
    // The retention, with the clock moved past the retention period.
    const retention = createApplyRetention({
      db: worker.deps.db,
      queues: worker.deps.queues,
      logger: worker.deps.logger,
      redis: worker.deps.connection,
      redisKeyPrefix: worker.config.REDIS_KEY_PREFIX,
      retentionMonths: 24,
      noticeDays: 30,
      analyticsRetentionMonths: 13,
    });
    await api.db('ebook_requests').where({ email: erasedByRetention.email }).update({ created_at: api.db.raw("now() - interval '25 months'") });
    expect((await retention(new Date())).erased).toBe(1);

    expect(Number((await api.db('ebook_requests').count({ n: '*' }).first())?.n)).toBe(1);
    expect(await placesRemaining()).toBe(7);
    const places = await api.db('offer_places').select('*');
    expect(places).toHaveLength(3);
    for (const place of places) expect(Object.keys(place).sort()).toEqual(['phone_key', 'taken_at']);
    expect(JSON.stringify(places)).not.toMatch(/3934|chiara|piero/);

    // Erased, the person comes back: the place is theirs already.
    await request(api.app).post('/api/ebook-request').send(validLead(erasedOnRequest)).expect(201);
    expect(await placesRemaining()).toBe(7);
  });
});
