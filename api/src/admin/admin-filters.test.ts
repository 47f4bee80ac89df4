import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, validationMessages } from '@guida/shared/messages';
import { signInAsAdmin } from '../testing/admin-session';
import { createTestApi, type TestApi } from '../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await api.close();
});

/** Every admin list or report that takes filters from the query string. */
const FILTERED_ROUTES = [
  '/api/admin/leads',
  '/api/admin/leads/export.csv',
  '/api/admin/funnel',
  '/api/admin/consents',
  '/api/admin/data-requests',
  '/api/admin/overview',
];

const HUGE = 'x'.repeat(5000);

/** Raw query strings (sent as typed: control characters percent-encoded, keys repeated). */
const MALFORMED: [query: string, field: string, message: string][] = [
  ['q=mario%00rossi', 'q', validationMessages.controlCharacters],
  ['q=%1B%5B31m', 'q', validationMessages.controlCharacters],
  ['q=a&q=b', 'q', adminMessages.invalidFilter],
  ['landingPath=/%00', 'landingPath', validationMessages.controlCharacters],
  ['utmSource=google%07', 'utmSource', validationMessages.controlCharacters],
  ['utmMedium=cpc%00', 'utmMedium', validationMessages.controlCharacters],
  [`utmCampaign=${HUGE}`, 'utmCampaign', adminMessages.invalidFilter],
  ['utmCampaign=a&utmCampaign=b', 'utmCampaign', adminMessages.invalidFilter],
  ['utmTerm=guida%1F', 'utmTerm', validationMessages.controlCharacters],
  ['utmContent=annuncio%1B%5B2J', 'utmContent', validationMessages.controlCharacters],
  ['heroVariant=b%00', 'heroVariant', validationMessages.controlCharacters],
  [`heroVariant=${HUGE}`, 'heroVariant', adminMessages.invalidFilter],
  ['days=365', 'days', adminMessages.invalidPeriod],
  ['days=7%00', 'days', adminMessages.invalidPeriod],
  ['days=1&days=7', 'days', adminMessages.invalidPeriod],
  ['from=2026-02-30', 'from', adminMessages.invalidDay],
  ['from=2026-13-01', 'from', adminMessages.invalidDay],
  ['to=0000-01-01', 'to', adminMessages.invalidDay],
  ['to=2026-11-05%00', 'to', adminMessages.invalidDay],
  ['from=ieri', 'from', adminMessages.invalidDay],
  ['page=abc', 'page', adminMessages.invalidFilter],
  ['page=0', 'page', adminMessages.invalidFilter],
  ['pageSize=1000', 'pageSize', adminMessages.invalidFilter],
  ['ebookType=%00', 'ebookType', adminMessages.invalidFilter],
  ['smsStatus=quasi', 'smsStatus', adminMessages.invalidFilter],
  ['status=quasi', 'status', adminMessages.invalidFilter],
];

/** Which fields each route's schema reads (the others are ignored, as before). */
const FIELDS: Record<string, string[]> = {
  '/api/admin/leads': [
    'q', 'landingPath', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'from', 'to', 'page', 'pageSize',
    'ebookType', 'smsStatus',
  ],
  '/api/admin/leads/export.csv': [
    'q', 'landingPath', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'from', 'to', 'ebookType', 'smsStatus',
  ],
  '/api/admin/funnel': ['landingPath', 'utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'heroVariant', 'from', 'to'],
  '/api/admin/consents': ['from', 'to'],
  '/api/admin/data-requests': ['status', 'page', 'pageSize'],
  '/api/admin/overview': ['days'],
};

describe('malformed admin filters', () => {
  it('answer 400 with an Italian message naming the field, never 500', async () => {
    let checked = 0;
    for (const route of FILTERED_ROUTES) {
      for (const [query, field, message] of MALFORMED) {
        if (!FIELDS[route]!.includes(field)) continue;
        const response = await admin.agent.get(`${route}?${query}`);
        expect(response.status, `${route}?${query}`).toBe(400);
        expect(response.body.errors?.[field], `${route}?${query}`).toBe(message);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('ignore the query string on the admin screens that take none, whatever it holds', async () => {
    for (const route of ['/api/admin/experiments', '/api/admin/alerts', '/api/admin/configuration', '/api/admin/consents']) {
      for (const query of ['x=%00', `q=${HUGE}`, 'landingPath=/%00&a=1&a=2', '%E0%A4%A=1']) {
        const response = await admin.agent.get(`${route}?${query}`);
        expect(response.status, `${route}?${query}`).toBe(200);
      }
    }
  });

  it('still accept real days, including 29 February of a leap year', async () => {
    expect((await admin.agent.get('/api/admin/leads?from=2028-02-29&to=2028-03-01')).status).toBe(200);
    expect((await admin.agent.get('/api/admin/funnel?from=2026-01-01&to=2026-12-31')).status).toBe(200);
    expect((await admin.agent.get('/api/admin/leads?q=%09Rossi%0A')).status).toBe(200);
  });

  it('answer malformed ids in the path with a 4xx in Italian', async () => {
    for (const path of ['/api/admin/leads/%E0%A4%A', '/api/admin/leads/1%00', '/api/admin/queues/sms%00/failed']) {
      const response = await admin.agent.get(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(response.body.message, path).toEqual(expect.any(String));
    }
    const retry = await admin.agent.post('/api/admin/queues/sms/jobs/a%00b/retry').set('X-CSRF-Token', admin.csrfToken);
    expect(retry.status).toBe(404);
    expect(retry.body.message).toBe(adminMessages.jobNotFound);
  });
});
