import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLead } from '@guida/testing/lead-fixture';
import { HERO_EXPERIMENTS } from '@guida/shared/experiments';
import type { Overview } from '@guida/shared/schemas/admin';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, validLead, type TestApi } from '../../testing/test-api';
import { addDays, operatorDay, startOfOperatorDay } from '../reports/report-range';
import { overview } from './admin-overview.repo';

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/** PostgreSQL's percentile_cont: linear interpolation between the closest ranks. */
function percentileCont(values: number[], fraction: number) {
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower]! + (position - lower) * (sorted[upper]! - sorted[lower]!);
}

/** A lead as stored, whose SMS and CRM delivery are set aside unless a test gives them a state. */
async function lead(db: TestApi['db'], values: Record<string, unknown>) {
  const created = await insertLead(db, values);
  await db('sms_messages').where({ lead_id: created.leadId }).update({ status: 'skipped' });
  await db('crm_deliveries').where({ id: created.crmDeliveryId }).update({ status: 'skipped', updated_at: new Date(0) });
  return created;
}

/** A funnel landing; `campaign` is a utm_source, or the landing's UTM fields. */
const landing = (session: string, path: string, at: Date, campaign?: string | Record<string, string>) => ({
  event_id: randomUUID(),
  session_id: session,
  step: 'landing',
  metadata: { path, ...(typeof campaign === 'string' ? { utm_source: campaign } : campaign) },
  timestamp: at,
});

// The rows' verification counts (decision 059) are checked in admin-overview.verified.test.ts.
describe('GET /api/admin/overview: A/B variants', () => {
  let api: TestApi;
  let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
  const [experiment] = HERO_EXPERIMENTS;

  beforeAll(async () => {
    api = await createTestApi();
    admin = await signInAsAdmin(api);
    const now = Date.now();
    const view = (session: string, variant: string, at: number) => ({
      event_id: randomUUID(),
      session_id: session,
      path: experiment!.path,
      hero_variant: variant,
      timestamp: new Date(at),
    });
    await api.db('page_views').insert([
      view('a-1', 'a', now - HOUR),
      view('a-1', 'a', now - HOUR + SECOND),
      view('a-2', 'a', now - 2 * HOUR),
      view('a-3', 'a', now - 3 * DAY),
      view('b-1', 'b', now - HOUR),
      view('b-2', 'b', now - 2 * DAY),
      // Ten days back: in the 30 days, not in the 7.
      view('b-3', 'b', now - 10 * DAY),
    ]);
    await lead(api.db, { landing_path: experiment!.path, hero_variant: 'a', created_at: new Date(now - HOUR) });
    await lead(api.db, { landing_path: experiment!.path, hero_variant: 'b', created_at: new Date(now - 2 * HOUR) });
    await lead(api.db, { landing_path: experiment!.path, hero_variant: 'b', created_at: new Date(now - 10 * DAY) });
  });
  afterAll(async () => {
    await api.close();
  });

  it('counts visitors (sessions) and leads per variant of each experiment over the chosen days', async () => {
    const label = (id: string) => experiment!.variants.find((variant) => variant.id === id)!.label;
    const row = (id: string, visitors: number, leads: number) => ({
      experimentName: experiment!.name,
      landingPath: experiment!.path,
      variantLabel: label(id),
      visitors,
      leads,
    });
    const week = (await admin.agent.get('/api/admin/overview?days=7')).body as Overview;
    expect(week.byVariant).toMatchObject([row('a', 3, 1), row('b', 2, 1), row('c', 0, 0)]);
    const month = (await admin.agent.get('/api/admin/overview?days=30')).body as Overview;
    expect(month.byVariant).toMatchObject([row('a', 3, 1), row('b', 3, 2), row('c', 0, 0)]);
  });
});

describe('GET /api/admin/overview: leads, trend and conversion', () => {
  let api: TestApi;
  let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
  const now = new Date();
  const today = operatorDay(now);
  const midnight = startOfOperatorDay(today);

  beforeAll(async () => {
    api = await createTestApi();
    admin = await signInAsAdmin(api);
    const google = { landing_path: '/etf-vs-oro', utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno' };
    // Either side of the last Italian midnight (a run in the first second of a day would see both as yesterday).
    await lead(api.db, { ...google, created_at: new Date(midnight.getTime() + SECOND) });
    await lead(api.db, { ...google, utm_campaign: 'inverno', utm_term: 'oro', created_at: new Date(now.getTime() - 1000) });
    await lead(api.db, { landing_path: '/', created_at: new Date(midnight.getTime() - SECOND) });
    // Noon of the sixth day back: still in the last 7 days; noon of the seventh day back: not.
    await lead(api.db, { ...google, created_at: new Date(startOfOperatorDay(addDays(today, -6)).getTime() + 12 * HOUR) });
    await lead(api.db, { landing_path: '/', created_at: new Date(startOfOperatorDay(addDays(today, -7)).getTime() + 12 * HOUR) });
    // Before the 30 days.
    await lead(api.db, { landing_path: '/', created_at: new Date(startOfOperatorDay(addDays(today, -30)).getTime() + 12 * HOUR) });

    const earlier = new Date(Math.max(midnight.getTime(), now.getTime() - 2 * SECOND));
    const autumn = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno' };
    await api.db('conversion_funnel').insert([
      landing('a', '/etf-vs-oro', earlier, autumn),
      landing('b', '/etf-vs-oro', earlier, autumn),
      // The same campaign with another ad (utm_content): a campaign row of its own.
      landing('c', '/etf-vs-oro', earlier, { ...autumn, utm_content: 'video' }),
      landing('d', '/etf-vs-oro', earlier, { ...autumn, utm_campaign: 'inverno', utm_term: 'oro' }),
      landing('e', '/', earlier),
      landing('f', '/', earlier),
      landing('g', '/trading-old', earlier, 'facebook'),
    ]);
  });
  afterAll(async () => {
    await api.close();
  });

  it('counts leads today, in 7 and in 30 Italian days, with one trend point a day', async () => {
    const response = await admin.agent.get('/api/admin/overview');
    expect(response.status).toBe(200);
    const body = response.body as Overview;
    expect(body.leads).toMatchObject({ today: 2, last7Days: 4, last30Days: 5 });
    expect(body.leads.byDay).toHaveLength(30);
    expect(body.leads.byDay.at(-1)).toEqual({ day: today, leads: 2 });
    expect(body.leads.byDay.at(-2)).toEqual({ day: addDays(today, -1), leads: 1 });
    expect(body.leads.byDay.at(-7)).toEqual({ day: addDays(today, -6), leads: 1 });
    expect(body.leads.byDay.at(-8)).toEqual({ day: addDays(today, -7), leads: 1 });
    expect(body.leads.byDay[0]).toEqual({ day: addDays(today, -29), leads: 0 });
    expect(body.promiseSeconds).toBe(120);
  });

  it('splits leads and visitors of the chosen days by landing page, source and campaign', async () => {
    const today1 = (await admin.agent.get('/api/admin/overview?days=1')).body as Overview;
    expect(today1.days).toBe(1);
    expect(today1.byLandingPage).toMatchObject([
      { landingPath: '/etf-vs-oro', visitors: 4, leads: 2 },
      { landingPath: '/', visitors: 2, leads: 0 },
      { landingPath: '/trading-old', visitors: 1, leads: 0 },
    ]);
    expect(today1.bySource).toMatchObject([
      { utmSource: 'google', visitors: 4, leads: 2 },
      { utmSource: '(direct)', visitors: 2, leads: 0 },
      { utmSource: 'facebook', visitors: 1, leads: 0 },
    ]);
    // Split by all five UTM fields, as the funnel is.
    expect(today1.byCampaign).toMatchObject([
      { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno', utmTerm: '', utmContent: '', visitors: 2, leads: 1 },
      { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'inverno', utmTerm: 'oro', utmContent: '', visitors: 1, leads: 1 },
      { utmSource: '(direct)', utmMedium: '', utmCampaign: '', utmTerm: '', utmContent: '', visitors: 2, leads: 0 },
      { utmSource: 'facebook', utmMedium: '', utmCampaign: '', visitors: 1, leads: 0 },
      { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno', utmTerm: '', utmContent: 'video', visitors: 1, leads: 0 },
    ]);

    const week = (await admin.agent.get('/api/admin/overview?days=7')).body as Overview;
    expect(week.byLandingPage[0]).toMatchObject({ landingPath: '/etf-vs-oro', visitors: 4, leads: 3 });
    expect(week.byLandingPage[1]).toMatchObject({ landingPath: '/', visitors: 2, leads: 1 });
    expect(week.byCampaign).toMatchObject([
      { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno', utmContent: '', visitors: 2, leads: 2 },
      { utmSource: '(direct)', utmMedium: '', utmCampaign: '', visitors: 2, leads: 1 },
      { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'inverno', utmTerm: 'oro', visitors: 1, leads: 1 },
      { utmSource: 'facebook', utmMedium: '', utmCampaign: '', visitors: 1, leads: 0 },
      { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno', utmContent: 'video', visitors: 1, leads: 0 },
    ]);
  });

  it('refuses a period it does not offer, in Italian', async () => {
    const response = await admin.agent.get('/api/admin/overview?days=90');
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Periodo non valido: scegli 1, 7 o 30 giorni.');
  });

  it('is for signed-in admins only', async () => {
    expect((await request(api.app).get('/api/admin/overview')).status).toBe(401);
  });
});

describe('GET /api/admin/overview: leads and visits without campaign', () => {
  let api: TestApi;
  let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

  beforeAll(async () => {
    api = await createTestApi();
    admin = await signInAsAdmin(api);
    const now = Date.now();
    // Today in Italy, even in the first seconds of the day.
    const earlier = new Date(Math.max(startOfOperatorDay(operatorDay(new Date(now))).getTime(), now - 2 * SECOND));
    // Stored before the default (NULL), with it ('direct'), with a medium but no source, and from a campaign.
    await lead(api.db, { landing_path: '/', created_at: earlier });
    await lead(api.db, { landing_path: '/', utm_source: 'direct', first_utm_source: 'direct', created_at: earlier });
    await lead(api.db, { landing_path: '/', utm_source: 'direct', utm_medium: 'email', created_at: earlier });
    await lead(api.db, { landing_path: '/', utm_source: 'google', created_at: earlier });
    await api.db('conversion_funnel').insert([
      landing('n1', '/', earlier),
      landing('n2', '/', earlier),
      // An address that says utm_source=direct is no campaign either.
      landing('n3', '/', earlier, 'direct'),
      landing('n4', '/', earlier, { utm_source: 'direct', utm_medium: 'email' }),
      landing('g1', '/', earlier, 'google'),
    ]);
  });
  afterAll(async () => {
    await api.close();
  });

  it('counts leads stored as "direct" or NULL with the visits without utm_source, as "(direct)"', async () => {
    const body = (await admin.agent.get('/api/admin/overview?days=1')).body as Overview;
    expect(body.bySource).toMatchObject([
      { utmSource: '(direct)', visitors: 4, leads: 3 },
      { utmSource: 'google', visitors: 1, leads: 1 },
    ]);
    expect(body.byCampaign).toMatchObject([
      { utmSource: '(direct)', utmMedium: '', utmCampaign: '', visitors: 3, leads: 2 },
      { utmSource: '(direct)', utmMedium: 'email', utmCampaign: '', visitors: 1, leads: 1 },
      { utmSource: 'google', utmMedium: '', utmCampaign: '', visitors: 1, leads: 1 },
    ]);
  });
});

describe('GET /api/admin/overview: SMS timing, failures, held SMS and the CRM', () => {
  let api: TestApi;
  let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo);
  /** Seconds from request to provider of the SMS of the last 24 h. */
  const dayDelays = Array.from({ length: 20 }, (_, index) => 2 * (index + 1));
  const deliveredDelays: number[] = [];

  beforeAll(async () => {
    api = await createTestApi();
    admin = await signInAsAdmin(api);
    const smsLead = async (createdAt: Date, sms: Record<string, unknown>) => {
      const created = await lead(api.db, { created_at: createdAt });
      await api.db('sms_messages').where({ lead_id: created.leadId }).update({ created_at: createdAt, ...sms });
      return created;
    };
    for (const [index, delay] of dayDelays.entries()) {
      const requested = at(2 * HOUR + index * 60 * SECOND);
      const sent = new Date(requested.getTime() + delay * SECOND);
      // Every other one has its delivery report, 5 s after the provider took it.
      const delivered = index % 2 === 0 ? new Date(sent.getTime() + 5 * SECOND) : null;
      if (delivered) deliveredDelays.push(delay + 5);
      await smsLead(requested, { status: delivered ? 'delivered' : 'sent', sent_at: sent, delivered_at: delivered });
    }
    // Three days ago, over the promise: in the 7 days only.
    await smsLead(at(3 * DAY), { status: 'sent', sent_at: at(3 * DAY - 200 * SECOND) });
    // A lead of 5 days ago whose SMS the admin sent again 10 minutes ago: its wait starts at the resend.
    const resent = await smsLead(at(5 * DAY), { status: 'sent', sent_at: at(10 * 60 * SECOND - 3 * SECOND) });
    const smsId = (await api.db('sms_messages').where({ lead_id: resent.leadId }).first<{ id: number }>('id')).id;
    await api.db('sms_events').insert({ sms_message_id: smsId, status: 'pending', occurred_at: at(10 * 60 * SECOND) });

    await smsLead(at(HOUR), { status: 'failed', failed_at: at(HOUR), error_code: '21610', error_message: 'Unsubscribed recipient' });
    await smsLead(at(2 * HOUR), { status: 'failed', failed_at: at(2 * HOUR), error_code: '21610', error_message: 'Attempt to send to unsubscribed recipient' });
    await smsLead(at(3 * HOUR), { status: 'undelivered', sent_at: at(3 * HOUR), failed_at: at(3 * HOUR - 30 * SECOND), error_code: '30003' });
    // Eight days ago: out of the week.
    await smsLead(at(8 * DAY), { status: 'failed', failed_at: at(8 * DAY), error_code: '30007' });
    await smsLead(at(30 * 60 * SECOND), { status: 'held' });
    await smsLead(at(20 * 60 * SECOND), { status: 'held' });

    const crm = async (status: string, updatedAt: Date, extra: Record<string, unknown> = {}) => {
      const created = await lead(api.db, { created_at: updatedAt });
      await api.db('crm_deliveries').where({ id: created.crmDeliveryId }).update({ status, updated_at: updatedAt, created_at: updatedAt, ...extra });
    };
    await crm('pending', at(5 * 60 * SECOND));
    await crm('retrying', at(15 * 60 * SECOND), { last_error: 'HTTP 503', response_status: 503, attempts: 2 });
    await crm('failed', at(2 * DAY), { last_error: 'HTTP 410', response_status: 410, attempts: 1 });
    await crm('failed', at(9 * DAY), { last_error: 'HTTP 500', response_status: 500 });
    await crm('delivered', at(HOUR));
    await crm('delivered', at(2 * HOUR));
  });
  afterAll(async () => {
    await api.close();
  });

  it('gives p50 and p95 from the request (or the resend) to the provider and to delivery, over 24 h and 7 days', async () => {
    const body = (await admin.agent.get('/api/admin/overview')).body as Overview;
    // The resend (3 s) and the undelivered SMS of 3 hours ago, which the provider took at once.
    const lastDay = [...dayDelays, 3, 0];
    const { toProvider, toDelivered } = body.sms;
    expect(toProvider.last24Hours).toMatchObject({ count: 22, withinPromise: 22 });
    expect(toProvider.last24Hours.p50Seconds).toBeCloseTo(percentileCont(lastDay, 0.5), 1);
    expect(toProvider.last24Hours.p95Seconds).toBeCloseTo(percentileCont(lastDay, 0.95), 1);
    const lastWeek = [...lastDay, 200];
    expect(toProvider.last7Days).toMatchObject({ count: 23, withinPromise: 22 });
    expect(toProvider.last7Days.p95Seconds).toBeCloseTo(percentileCont(lastWeek, 0.95), 1);
    expect(toDelivered.last24Hours).toMatchObject({ count: 10, withinPromise: 10 });
    expect(toDelivered.last24Hours.p50Seconds).toBeCloseTo(percentileCont(deliveredDelays, 0.5), 1);
    expect(toDelivered.last7Days.p95Seconds).toBeCloseTo(percentileCont(deliveredDelays, 0.95), 1);
  });

  it('groups the failures of the week by error code, the most frequent first', async () => {
    const body = (await admin.agent.get('/api/admin/overview')).body as Overview;
    expect(body.sms.failuresByReason).toEqual([
      { errorCode: '21610', count: 2, lastMessage: 'Unsubscribed recipient', lastAt: at(HOUR).toISOString() },
      { errorCode: '30003', count: 1, lastMessage: null, lastAt: at(3 * HOUR - 30 * SECOND).toISOString() },
    ]);
  });

  it('counts the held SMS and the CRM backlog, failures and latest error', async () => {
    const body = (await admin.agent.get('/api/admin/overview')).body as Overview;
    expect(body.sms.held).toEqual({ count: 2, oldestAt: at(30 * 60 * SECOND).toISOString() });
    expect(body.crm).toEqual({
      backlog: 2,
      oldestBacklogAt: at(15 * 60 * SECOND).toISOString(),
      retrying: 1,
      failedLast7Days: 1,
      deliveredLast24Hours: 2,
      skippedLast24Hours: 0,
      lastError: { at: at(15 * 60 * SECOND).toISOString(), message: 'HTTP 503', httpStatus: 503 },
    });
  });
});

describe('overview days around a change of the clocks', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('puts each lead on its Italian day when summer time starts (29 March 2026)', async () => {
    for (const createdAt of [
      '2026-03-28T22:59:59Z', // 23:59:59 on the 28th (UTC+1)
      '2026-03-28T23:00:00Z', // midnight of the 29th
      '2026-03-29T21:59:59Z', // 23:59:59 on the 29th (UTC+2 since 3 am)
      '2026-03-29T22:00:00Z', // midnight of the 30th
    ]) {
      await lead(api.db, { created_at: createdAt });
    }
    const result = await overview(api.db, { now: new Date('2026-03-30T08:00:00Z'), days: 7 });
    expect(result.leads.byDay.slice(-3)).toEqual([
      { day: '2026-03-28', leads: 1 },
      { day: '2026-03-29', leads: 2 },
      { day: '2026-03-30', leads: 1 },
    ]);
    expect(result.leads.today).toBe(1);
  });
});

describe('GET /api/admin/overview: the offer (decision 047)', () => {
  let now = new Date('2031-03-01T10:00:00Z');
  let api: TestApi;
  let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
  beforeAll(async () => {
    api = await createTestApi(
      { FREE_PLACES_TOTAL: '2', OFFER_ENDS_AT: '2031-03-31T23:59:00+02:00', LIVE_STATS_CACHE_SECONDS: '0' },
      { now: () => now },
    );
    admin = await signInAsAdmin(api);
  });
  afterAll(async () => {
    await api.close();
  });
  const offerNow = async () => ((await admin.agent.get('/api/admin/overview').expect(200)).body as Overview).offer;
  const post = () => request(api.app).post('/api/ebook-request').send(validLead());

  it('tells whether the offer runs or has ended, why, and with which figures', async () => {
    expect(await offerNow()).toEqual({
      startsAt: null,
      endsAt: '2031-03-31T21:59:00.000Z',
      placesTotal: 2,
      placesTaken: 0,
      endReason: null,
    });
    await post().expect(201);
    await post().expect(201);
    expect(await offerNow()).toMatchObject({ placesTotal: 2, placesTaken: 2, endReason: 'places' });

    now = new Date('2031-04-01T00:00:00+02:00');
    // A month on the API's clock: that session has long idled out, so a new one.
    admin = await signInAsAdmin(api);
    expect(await offerNow()).toMatchObject({ placesTaken: 2, endReason: 'deadline' });
  });
});
