/**
 * A limit is a limit (decision 047): once the deadline has passed or the places are taken,
 * the intake answers 410 and stores, sends and queues nothing; places are taken once per
 * phone from the offer's start and never given back.
 */
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { apiMessages, offerEndedTexts } from '@guida/shared/messages';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import type { SiteSettings } from '@guida/shared/schemas/site-settings';
import { createApp } from '../app';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../testing/test-api';

/** Live figures and places counted on every request; many posts from one address. */
const BASE_ENV = { LIVE_STATS_CACHE_SECONDS: '0', LEAD_RATE_LIMIT_PER_IP: '100000', LEAD_RATE_LIMIT_PER_PHONE: '100' };

const apis: TestApi[] = [];
async function testApi(env: Record<string, string>, options: Parameters<typeof createTestApi>[1] = {}) {
  const api = await createTestApi({ ...BASE_ENV, ...env }, options);
  apis.push(api);
  return api;
}
afterAll(async () => {
  await Promise.all(apis.map((api) => api.close()));
});

const postJson = (app: TestApi['app'], body: unknown) => request(app).post('/api/ebook-request').send(body as object);

/** A form posted without JavaScript, as a browser sends it. */
const postForm = (app: TestApi['app'], lead: Record<string, unknown>) =>
  request(app)
    .post('/api/ebook-request')
    .type('form')
    .set('Accept', 'text/html,application/xhtml+xml')
    .send({ ...lead, gdprConsent: 'on' } as Record<string, string>);

/** Everything a lead leaves behind: rows and queued jobs. */
async function footprint(api: TestApi) {
  const count = async (table: string) => Number((await api.db(table).count({ n: '*' }).first())?.n);
  const jobs = async (name: 'sms' | 'crm') =>
    Object.values(await api.deps.queues.queue(name).getJobCounts()).reduce((sum, n) => sum + n, 0);
  return {
    leads: await count('ebook_requests'),
    consents: await count('gdpr_consents'),
    sms: await count('sms_messages'),
    crm: await count('crm_deliveries'),
    places: await count('offer_places'),
    smsJobs: await jobs('sms'),
    crmJobs: await jobs('crm'),
  };
}

const siteSettings = async (api: TestApi) => (await request(api.app).get('/api/site-settings').expect(200)).body as SiteSettings;
const liveStats = async (api: TestApi) => (await request(api.app).get('/api/live-stats?path=/').expect(200)).body as LiveStats;

describe('an offer past its deadline', () => {
  it('answers 410 in Italian, as JSON and as a page, and stores, sends and queues nothing', async () => {
    let now = new Date('2031-01-31T22:58:00Z');
    const api = await testApi({ OFFER_ENDS_AT: '2031-02-01T00:00:00+01:00' }, { now: () => now });

    expect((await postJson(api.app, validLead())).status).toBe(201);
    expect(await siteSettings(api)).toMatchObject({ offerEndsAt: '2031-02-01T00:00:00+01:00', offerEnded: false, offerEndReason: null });

    // The clock moves past the deadline.
    now = new Date('2031-01-31T23:00:00Z');
    const before = await footprint(api);

    const json = await postJson(api.app, validLead());
    expect(json.status).toBe(410);
    expect(json.body).toEqual({ message: apiMessages.offerEndedDeadline });

    const page = await postForm(api.app, validLead());
    expect(page.status).toBe(410);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain(`<h1>${offerEndedTexts.title}</h1>`);
    expect(page.text).toContain(offerEndedTexts.deadline.replace("'", '&#39;'));

    // An ended offer is ended whatever the body: an invalid one gets the same answer.
    expect((await postJson(api.app, { nome: 'x' })).status).toBe(410);

    expect(await footprint(api)).toEqual(before);
    expect(await siteSettings(api)).toMatchObject({ offerEnded: true, offerEndReason: 'deadline' });
  });

  it('still refuses a cross-site post with 403 first', async () => {
    const api = await testApi({ OFFER_ENDS_AT: '2020-01-01T00:00:00Z', PUBLIC_BASE_URL: 'https://guida.example.it' });
    const response = await postJson(api.app, validLead()).set('Sec-Fetch-Site', 'cross-site');
    expect(response.status).toBe(403);
  });
});

describe('places', () => {
  it('are taken once per phone: a repeat takes none; with every place taken the offer ends for everyone', async () => {
    const api = await testApi({ FREE_PLACES_TOTAL: '3' });
    const first = uniqueItalianMobile();

    expect((await postJson(api.app, validLead({ telefono: first }))).status).toBe(201);
    // A repeat within its 24 hours, and one whose window has expired: no second place.
    expect((await postJson(api.app, validLead({ telefono: first }))).status).toBe(201);
    await api.db('recent_phone_requests').update({ requested_at: api.db.raw("now() - interval '2 days'") });
    expect((await postJson(api.app, validLead({ telefono: first }))).status).toBe(201);
    expect(await liveStats(api)).toMatchObject({ placesTotal: 3, placesRemaining: 2 });
    expect(await siteSettings(api)).toMatchObject({ offerEnded: false, offerEndReason: null });

    expect((await postJson(api.app, validLead())).status).toBe(201);
    expect((await postJson(api.app, validLead())).status).toBe(201);
    expect(await liveStats(api)).toMatchObject({ placesTotal: 3, placesRemaining: 0 });

    const before = await footprint(api);
    expect(before).toMatchObject({ leads: 5, places: 3 });
    const refused = await postJson(api.app, validLead());
    expect(refused.status).toBe(410);
    expect(refused.body).toEqual({ message: apiMessages.offerEndedPlaces });
    const page = await postForm(api.app, validLead());
    expect(page.status).toBe(410);
    expect(page.text).toContain(`<h1>${offerEndedTexts.title}</h1>`);
    // The offer has ended: a phone that holds a place gets the same answer.
    expect((await postJson(api.app, validLead({ telefono: first }))).status).toBe(410);

    expect(await footprint(api)).toEqual(before);
    expect(await siteSettings(api)).toMatchObject({ offerEnded: true, offerEndReason: 'places' });
  });

  it('stay taken when their leads are erased', async () => {
    const api = await testApi({ FREE_PLACES_TOTAL: '10' });
    const ids: number[] = [];
    for (let n = 0; n < 3; n += 1) ids.push((await postJson(api.app, validLead()).expect(201)).body.id);
    expect(await liveStats(api)).toMatchObject({ placesRemaining: 7 });

    // What an erasure or the retention does to the lead's rows (worker/src/gdpr/erasure.ts).
    await api.db('ebook_requests').whereIn('id', ids).delete();

    expect(await liveStats(api)).toMatchObject({ placesRemaining: 7 });
    expect(Number((await api.db('offer_places').count({ n: '*' }).first())?.n)).toBe(3);
  });

  it('count from OFFER_STARTS_AT: a lead before the start takes none until it comes back after it', async () => {
    const startsAt = new Date(Date.now() + 1500);
    const api = await testApi({ FREE_PLACES_TOTAL: '10', OFFER_STARTS_AT: startsAt.toISOString() });
    const early = uniqueItalianMobile();

    expect((await postJson(api.app, validLead({ telefono: early }))).status).toBe(201);
    expect((await postJson(api.app, validLead())).status).toBe(201);
    expect(await liveStats(api)).toMatchObject({ placesRemaining: 10 });

    // PostgreSQL's clock passes the start.
    await new Promise((resolve) => setTimeout(resolve, startsAt.getTime() - Date.now() + 50));
    expect((await postJson(api.app, validLead())).status).toBe(201);
    expect(await liveStats(api)).toMatchObject({ placesRemaining: 9 });
    expect((await postJson(api.app, validLead({ telefono: early }))).status).toBe(201);
    expect((await postJson(api.app, validLead({ telefono: early }))).status).toBe(201);
    expect(await liveStats(api)).toMatchObject({ placesRemaining: 8 });
  });

  it('hold under concurrency: 50 parallel requests through five API processes for the last 5 places store exactly 5', async () => {
    const api = await testApi({ FREE_PLACES_TOTAL: '8' });
    for (let n = 0; n < 3; n += 1) await postJson(api.app, validLead()).expect(201);
    // Four more processes on the same database: their own lead batches and their own view of the offer.
    const apps = [api.app, ...Array.from({ length: 4 }, () => createApp({ ...api.deps }))];

    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => postJson(apps[index % 5]!, validLead())));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(45);
    expect(await footprint(api)).toMatchObject({ leads: 8, places: 8, sms: 8, crm: 8 });
    expect(await liveStats(api)).toMatchObject({ placesTotal: 8, placesRemaining: 0 });
  });
});

describe('without a cap or a deadline', () => {
  it('takes every lead and still keeps one place per phone, for a cap set later', async () => {
    const api = await testApi({});
    const phone = uniqueItalianMobile();
    for (let n = 0; n < 3; n += 1) await postJson(api.app, validLead({ telefono: phone })).expect(201);
    await postJson(api.app, validLead()).expect(201);
    expect(await footprint(api)).toMatchObject({ leads: 4, places: 2 });
    expect(await liveStats(api)).toMatchObject({ placesTotal: null, placesRemaining: null });
    expect(await siteSettings(api)).toMatchObject({ offerEndsAt: null, offerEnded: false, offerEndReason: null });
  });
});
