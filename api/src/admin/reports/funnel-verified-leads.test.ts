import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunnelReport } from '@guida/shared/schemas/admin';
import { insertLead } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { leadVerification, verificationSetup } from '../../testing/lead-verification';
import { createTestApi, type TestApi } from '../../testing/test-api';

/** The funnel's steps after the lead: "SMS consegnato" and "Guida aperta" (decision 059). */

const setup = verificationSetup();
let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

const autumn = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno' };

beforeAll(async () => {
  api = await createTestApi(setup.env);
  admin = await signInAsAdmin(api);
  const verify = leadVerification(api);
  const landing = (session: string, at: string, metadata: Record<string, string>) => ({
    event_id: randomUUID(),
    session_id: session,
    step: 'landing',
    metadata,
    timestamp: at,
  });
  await api.db('conversion_funnel').insert([
    landing('s1', '2026-12-02T09:00:00+01:00', { path: '/etf-vs-oro', ...autumn }),
    landing('s2', '2026-12-02T09:00:00+01:00', { path: '/etf-vs-oro', ...autumn }),
    landing('s3', '2026-12-02T09:00:00+01:00', { path: '/' }),
  ]);
  // 2 Dec, /etf-vs-oro, autunno: three leads, two SMS delivered, one guide opened.
  const leads = await Promise.all(
    [0, 1, 2].map(() => insertLead(api.db, { landing_path: '/etf-vs-oro', ...autumn, created_at: '2026-12-02T09:05:00+01:00' })),
  );
  await verify.smsDelivered(leads[0]!.leadId);
  await verify.smsDelivered(leads[1]!.leadId);
  await verify.guideDownloaded(leads[1]!.leadId);
  // 3 Dec, a form sent without JavaScript (no landing recorded): its lead still counts.
  const noScript = await insertLead(api.db, { landing_path: '/trading-old', utm_source: 'direct', created_at: '2026-12-03T18:00:00+01:00' });
  await verify.guideDownloaded(noScript.leadId);
  // November: outside the range.
  const earlier = await insertLead(api.db, { landing_path: '/etf-vs-oro', ...autumn, created_at: '2026-11-28T09:00:00+01:00' });
  await verify.smsDelivered(earlier.leadId);
});
afterAll(async () => {
  await api.close();
  setup.remove();
});

const funnel = async (query: Record<string, string> = {}) => {
  const response = await admin.agent.get('/api/admin/funnel').query({ from: '2026-12-01', to: '2026-12-31', ...query });
  expect(response.status).toBe(200);
  return (response.body as FunnelReport).days;
};

describe('GET /api/admin/funnel: SMS delivered and guide opened', () => {
  it('adds the leads whose SMS was delivered and whose guide was opened to their day, page and campaign', async () => {
    const none = { utmTerm: '', utmContent: '', heroVariant: '' };
    expect(await funnel()).toEqual([
      {
        day: '2026-12-02', landingPath: '/', utmSource: '(direct)', utmMedium: '', utmCampaign: '', ...none,
        landing: 1, formView: 0, formStart: 0, formSubmit: 0, success: 0, smsDelivered: 0, guideOpened: 0,
      },
      {
        day: '2026-12-02', landingPath: '/etf-vs-oro', utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'autunno', ...none,
        landing: 2, formView: 0, formStart: 0, formSubmit: 0, success: 0, smsDelivered: 2, guideOpened: 1,
      },
      {
        day: '2026-12-03', landingPath: '/trading-old', utmSource: '(direct)', utmMedium: '', utmCampaign: '', ...none,
        landing: 0, formView: 0, formStart: 0, formSubmit: 0, success: 0, smsDelivered: 0, guideOpened: 1,
      },
    ]);
  });

  it('narrows them with the same filters as the sessions', async () => {
    const steps = (days: FunnelReport['days']) => days.map((day) => [day.day, day.landingPath, day.smsDelivered, day.guideOpened]);
    expect(steps(await funnel({ utmCampaign: 'autunno' }))).toEqual([['2026-12-02', '/etf-vs-oro', 2, 1]]);
    expect(steps(await funnel({ utmSource: '(direct)', landingPath: '/trading-old' }))).toEqual([['2026-12-03', '/trading-old', 0, 1]]);
    expect(steps(await funnel({ from: '2026-11-01', to: '2026-11-30' }))).toEqual([['2026-11-28', '/etf-vs-oro', 1, 0]]);
    expect(await funnel({ heroVariant: 'b' })).toEqual([]);
  });
});
