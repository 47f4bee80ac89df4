import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGoogleAdsFetch } from '@guida/shared/deliveries/google-ads-fetches';
import { googleAdsMessages } from '@guida/shared/google-ads-conversions';
import type { GoogleAdsConversionsSummary } from '@guida/shared/schemas/admin-conversions';
import { insertLead } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
const NOW = new Date('2026-11-20T12:00:00Z');

beforeAll(async () => {
  api = await createTestApi({ GOOGLE_ADS_CONVERSION_VALUE: '1.50', GOOGLE_ADS_VERIFIED_CONVERSION_NAME: 'Lead con SMS, verificato' });
  admin = await signInAsAdmin(api);
  // The file's clock, once signed in: the leads below are inside its 90 days whatever today is.
  api.deps.now = () => NOW;
});
afterAll(async () => {
  await api.close();
});

describe('the admin’s Google Ads conversions', () => {
  it('need an admin session', async () => {
    for (const path of ['/api/admin/conversions/google-ads', '/api/admin/conversions/google-ads.csv']) {
      expect((await request(api.app).get(path)).status).toBe(401);
    }
  });

  it('download as the file Google Ads imports, audited, recording no upload', async () => {
    const { leadId } = await insertLead(api.db, {
      gclid: 'Cj0admin',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
      created_at: '2026-11-18T09:30:00Z',
      reachable_at: '2026-11-18T09:31:00Z',
    });
    await insertLead(api.db, { gclid: 'Cj0denied', created_at: '2026-11-18T09:30:00Z' });

    const response = await admin.agent.get('/api/admin/conversions/google-ads.csv');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="conversioni-google-ads-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.text.split('\r\n')).toEqual([
      'Parameters:TimeZone=Europe/Rome',
      'Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization',
      'Cj0admin,,,Richiesta guida,2026-11-18 10:30:00,1.50,EUR,Granted,Granted',
      'Cj0admin,,,"Lead con SMS, verificato",2026-11-18 10:31:00,1.50,EUR,Granted,Granted',
      '',
    ]);

    const audits = await api.db('admin_audit_log').where({ action: 'export_google_ads_conversions' });
    expect(audits).toMatchObject([{ user_id: admin.user.id, target_id: null, details: null }]);
    expect(await api.db('conversion_uploads').where({ subject_lead_id: leadId }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('say how the scheduled fetch is set up and what Google took so far', async () => {
    const before = await admin.agent.get('/api/admin/conversions/google-ads');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      conversionNames: { lead: 'Richiesta guida', verifiedLead: 'Lead con SMS, verificato' },
      value: '1.50',
      currency: 'EUR',
      windowDays: 90,
      timeZone: 'Europe/Rome',
      scheduledFetch: { configured: false, url: 'http://localhost:3000/api/conversions/google-ads.csv' },
      fetched: { leads: 0, verifiedLeads: 0, lastAt: null },
    } satisfies GoogleAdsConversionsSummary);

    const lead = await insertLead(api.db, { gclid: 'Cj0fetched' });
    const summary = googleAdsMessages.fetchedByGoogleAds;
    await recordGoogleAdsFetch(api.db, [{ leadId: lead.leadId, event: 'lead' }], { at: new Date('2026-11-19T05:00:00Z'), summary });
    await recordGoogleAdsFetch(api.db, [{ leadId: lead.leadId, event: 'lead' }, { leadId: lead.leadId, event: 'verified_lead' }], {
      at: new Date('2026-11-20T05:00:00Z'),
      summary,
    });
    const after = await admin.agent.get('/api/admin/conversions/google-ads');
    expect(after.body.fetched).toEqual({ leads: 1, verifiedLeads: 1, lastAt: '2026-11-20T05:00:00.000Z' });
  });

  it('name the downloaded file with the operator’s day, not the UTC one', async () => {
    // 23:30 UTC on the 19th is 00:30 on the 20th in Italy (before NOW: the session stays fresh).
    api.deps.now = () => new Date('2026-11-19T23:30:00Z');
    try {
      const response = await admin.agent.get('/api/admin/conversions/google-ads.csv');
      expect(response.status).toBe(200);
      expect(response.headers['content-disposition']).toBe('attachment; filename="conversioni-google-ads-2026-11-20.csv"');
    } finally {
      api.deps.now = () => NOW;
    }
  });
});
