import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';
import { reportRange, startOfOperatorDay } from './report-range';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

/** A lead of that moment whose SMS was first handed to the provider `seconds` later. */
async function leadSentAfter(createdAt: string, seconds: number, landingPath = '/', utmSource: string | null = null) {
  const lead = await insertLead(api.db, { created_at: createdAt, landing_path: landingPath, utm_source: utmSource });
  const sms = await api.db('sms_messages').where({ lead_id: lead.leadId }).first();
  const sentAt = new Date(new Date(createdAt).getTime() + seconds * 1000);
  await api.db('sms_events').insert([
    { sms_message_id: sms.id, status: 'sent', occurred_at: sentAt },
    // A resend an hour later must not count.
    { sms_message_id: sms.id, status: 'sent', occurred_at: new Date(sentAt.getTime() + 3600_000) },
  ]);
}

beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
  // 10 Nov: delays 1..10 s; 11 Nov: 20 and 40 s (one on another page); a lead never sent.
  for (let seconds = 1; seconds <= 10; seconds += 1) await leadSentAfter('2026-11-10T12:00:00+01:00', seconds);
  await leadSentAfter('2026-11-11T08:00:00+01:00', 20);
  await leadSentAfter('2026-11-11T08:00:00+01:00', 40, '/trading-old');
  await insertLead(api.db, { created_at: '2026-11-11T09:00:00+01:00' });

  const funnel = (session: string, steps: string[], landing: Record<string, string> = { path: '/', utm_source: 'google' }) =>
    steps.map((step, index) => ({
      event_id: randomUUID(),
      session_id: session,
      step,
      metadata: index === 0 ? landing : { path: landing.path },
      timestamp: `2026-11-10T10:0${index}:00+01:00`,
    }));
  await api.db('conversion_funnel').insert([
    ...funnel('a', ['landing', 'form_view', 'form_start', 'form_submit', 'success']),
    ...funnel('b', ['landing', 'form_view']),
    ...funnel('c', ['landing', 'form_view', 'form_start'], {
      path: '/trading-automatico',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'autunno',
      utm_term: 'guida',
      utm_content: 'annuncio-b',
      hero_variant: 'b',
    }),
  ]);

  const choice = (session: string, at: string, analytics: boolean, marketing: boolean, preferences: boolean) => ({
    session_id: session,
    analytics,
    marketing,
    preferences,
    consent_timestamp: at,
  });
  await api.db('cookie_consents').insert([
    choice('v1', '2026-11-10T10:00:00+01:00', false, false, false),
    // v1 changed their mind later: only their latest choice counts.
    choice('v1', '2026-11-12T10:00:00+01:00', true, false, true),
    choice('v2', '2026-11-10T11:00:00+01:00', true, true, true),
    choice('v3', '2026-11-11T11:00:00+01:00', false, false, false),
    choice('v4', '2026-10-01T11:00:00+01:00', true, true, true),
  ]);
});
afterAll(async () => {
  await api.close();
});

describe('GET /api/admin/funnel', () => {
  it('gives the funnel per day, page, campaign and variant, and time to SMS p50/p95 per day', async () => {
    const response = await admin.agent.get('/api/admin/funnel').query({ from: '2026-11-01', to: '2026-11-30' });
    expect(response.status).toBe(200);
    const none = { utmMedium: '', utmCampaign: '', utmTerm: '', utmContent: '', heroVariant: '' };
    const ad = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno', utmTerm: 'guida', utmContent: 'annuncio-b', heroVariant: 'b' };
    // No lead of the period has had its SMS delivered or its guide opened (see funnel-verified-leads.test.ts).
    const unverified = { smsDelivered: 0, guideOpened: 0 };
    expect(response.body.days).toEqual([
      { day: '2026-11-10', landingPath: '/', utmSource: 'google', ...none, landing: 2, formView: 2, formStart: 1, formSubmit: 1, success: 1, ...unverified },
      { day: '2026-11-10', landingPath: '/trading-automatico', ...ad, landing: 1, formView: 1, formStart: 1, formSubmit: 0, success: 0, ...unverified },
    ]);
    // 1..10 s: median 5.5 s; p95 by linear interpolation 9.55 s (rounded to 9.6 — one decimal).
    expect(response.body.timeToSms).toEqual([
      { day: '2026-11-10', sent: 10, p50Seconds: 5.5, p95Seconds: 9.6 },
      { day: '2026-11-11', sent: 2, p50Seconds: 30, p95Seconds: 39 },
    ]);
    expect(response.body).toHaveProperty('timeOnPage');
    expect(response.body).toHaveProperty('abandonment');
  });

  it('narrows time to SMS to a landing page and a range of days', async () => {
    const response = await admin.agent
      .get('/api/admin/funnel')
      .query({ from: '2026-11-11', to: '2026-11-11', landingPath: '/trading-old' });
    expect(response.body.timeToSms).toEqual([{ day: '2026-11-11', sent: 1, p50Seconds: 40, p95Seconds: 40 }]);
    expect(response.body.days).toEqual([]);
  });

  it('filters by every campaign field and by the variant', async () => {
    const days = async (query: Record<string, string>) =>
      (await admin.agent.get('/api/admin/funnel').query({ from: '2026-11-01', to: '2026-11-30', ...query })).body.days as { landingPath: string }[];
    const queries: Record<string, string>[] = [
      { utmMedium: 'cpc' },
      { utmCampaign: 'autunno' },
      { utmTerm: 'guida' },
      { utmContent: 'annuncio-b' },
      { heroVariant: 'b' },
    ];
    for (const query of queries) {
      expect((await days(query)).map((row) => row.landingPath), JSON.stringify(query)).toEqual(['/trading-automatico']);
    }
    expect(await days({ utmSource: 'google', heroVariant: 'c' })).toEqual([]);
    expect(await days({ utmSource: 'google' })).toHaveLength(2);
  });

  it('counts leads stored as "direct" or NULL, and visits without utm_source, under "(direct)"', async () => {
    await leadSentAfter('2026-12-02T08:00:00+01:00', 10);
    await leadSentAfter('2026-12-02T08:00:00+01:00', 30, '/', 'direct');
    await leadSentAfter('2026-12-02T08:00:00+01:00', 50, '/', 'google');
    const landing = (session: string, metadata: Record<string, string>) => ({
      event_id: randomUUID(),
      session_id: session,
      step: 'landing',
      metadata,
      timestamp: '2026-12-02T07:00:00+01:00',
    });
    await api.db('conversion_funnel').insert([
      landing('d1', { path: '/' }),
      landing('d2', { path: '/', utm_source: 'direct' }),
      landing('d3', { path: '/', utm_source: 'google' }),
    ]);
    const december = async (query: Record<string, string> = {}) =>
      (await admin.agent.get('/api/admin/funnel').query({ from: '2026-12-01', to: '2026-12-31', ...query })).body;
    const none = { utmMedium: '', utmCampaign: '', utmTerm: '', utmContent: '', heroVariant: '' };
    const counts = { landing: 2, formView: 0, formStart: 0, formSubmit: 0, success: 0 };
    const direct = {
      days: [{ day: '2026-12-02', landingPath: '/', utmSource: '(direct)', ...none, ...counts }],
      // 10 and 30 s: median 20 s, p95 29 s.
      timeToSms: [{ day: '2026-12-02', sent: 2, p50Seconds: 20, p95Seconds: 29 }],
    };
    expect(await december({ utmSource: '(direct)' })).toMatchObject(direct);
    expect(await december({ utmSource: 'direct' })).toMatchObject(direct);
    expect((await december()).days.map((row: { utmSource: string }) => row.utmSource)).toEqual(['(direct)', 'google']);
    expect((await december({ utmSource: 'google' })).timeToSms).toEqual([{ day: '2026-12-02', sent: 1, p50Seconds: 50, p95Seconds: 50 }]);
  });

  it('refuses a malformed day with an Italian message', async () => {
    const response = await admin.agent.get('/api/admin/funnel').query({ from: '10/11/2026' });
    expect(response.status).toBe(400);
    expect(response.body.errors.from).toBe(adminMessages.invalidDay);
  });
});

describe('GET /api/admin/consents', () => {
  it('counts the latest choice of each visitor in the range, per category', async () => {
    const response = await admin.agent.get('/api/admin/consents').query({ from: '2026-11-01', to: '2026-11-30' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ choices: 3, analytics: 2, marketing: 1, preferences: 2 });
    const october = await admin.agent.get('/api/admin/consents').query({ from: '2026-10-01', to: '2026-10-31' });
    expect(october.body).toEqual({ choices: 1, analytics: 1, marketing: 1, preferences: 1 });
  });
});

describe('report ranges', () => {
  it('are Italian days, summer and winter time alike, the last 30 days by default', () => {
    expect(startOfOperatorDay('2026-11-10').toISOString()).toBe('2026-11-09T23:00:00.000Z');
    expect(startOfOperatorDay('2026-07-10').toISOString()).toBe('2026-07-09T22:00:00.000Z');
    // 29 March 2026 has 23 hours in Italy: the range still ends at midnight of the 30th.
    expect(reportRange({ from: '2026-03-29', to: '2026-03-29' })).toEqual({
      from: new Date('2026-03-28T23:00:00.000Z'),
      to: new Date('2026-03-29T22:00:00.000Z'),
    });
    expect(reportRange({}, new Date('2026-11-22T10:00:00Z'))).toEqual({
      from: new Date('2026-10-23T22:00:00.000Z'),
      to: new Date('2026-11-22T23:00:00.000Z'),
    });
  });
});
