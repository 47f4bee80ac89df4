/**
 * The scheduled-upload URL of Google Ads (decision 062), through a real HTTP server and
 * client: what Google's fetcher sees, and what each fetch leaves in conversion_uploads.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_ADS_EXPORT_PATH, googleAdsMessages } from '@guida/shared/google-ads-conversions';
import { contactHashesOf } from '@guida/shared/server/marketing-suppression';
import { insertLead } from '@guida/testing/lead-fixture';
import { PRODUCTION_ENV } from '../testing/api-config';
import { createTestApi, type TestApi } from '../testing/test-api';

const USERNAME = 'google-ads';
const PASSWORD = 'k8Zq2pW9vR4xT7mB3nL6';
const CREDENTIALS = { GOOGLE_ADS_EXPORT_USERNAME: USERNAME, GOOGLE_ADS_EXPORT_PASSWORD: PASSWORD };
/** The clock of the fetches: leads of summer and winter time are inside the 90 days. */
const NOW = new Date('2026-11-20T12:00:00Z');
const DAY_MS = 24 * 3600 * 1000;

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** The app on a real port of 127.0.0.1, and a GET to it with Node's own HTTP client. */
async function serve(api: TestApi) {
  const server: Server = api.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    get: (headers: Record<string, string> = {}, method = 'GET') =>
      fetch(`http://127.0.0.1:${port}${GOOGLE_ADS_EXPORT_PATH}`, { method, headers }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A lead of the test's database: granted ad consent and the given values. */
const lead = (api: TestApi, values: Record<string, unknown>) =>
  insertLead(api.db, { ad_user_data: 'granted', ad_personalization: 'granted', ...values });

/** The file's conversion lines (after the parameters line and the header). */
const conversionLines = (text: string) => text.split('\r\n').slice(2).filter(Boolean);

describe('the Google Ads conversions URL', () => {
  let api: TestApi;
  let http: Awaited<ReturnType<typeof serve>>;
  const leads: Record<string, number> = {};

  beforeAll(async () => {
    api = await createTestApi(CREDENTIALS, { now: () => NOW });
    http = await serve(api);
    // Summer time (UTC+2), then winter time (UTC+1).
    leads.summer = (await lead(api, { gclid: 'Cj0summer', created_at: '2026-10-24T10:00:00Z' })).leadId;
    leads.winter = (await lead(api, { gclid: 'Cj0winter', created_at: '2026-11-02T10:00:00Z' })).leadId;
    // Verified: SMS delivered after the guide was opened; the earlier time counts.
    leads.verified = (
      await lead(api, {
        gclid: 'Cj0verified',
        created_at: '2026-11-10T08:00:00Z',
        engaged_at: '2026-11-10T08:05:00Z',
        reachable_at: '2026-11-10T08:07:00Z',
      })
    ).leadId;
    // iOS clicks: a gbraid, a wbraid; a gclid only of the first landing.
    leads.gbraid = (await lead(api, { gbraid: '0AAAAAgbraid', created_at: '2026-11-11T08:00:00Z' })).leadId;
    leads.wbraid = (await lead(api, { wbraid: 'CloKwbraid', gbraid: '0AAAAAother', created_at: '2026-11-12T08:00:00Z' })).leadId;
    leads.firstTouch = (await lead(api, { first_gclid: 'Cj0first', created_at: '2026-11-13T08:00:00Z' })).leadId;
    // None of these may be in the file.
    await lead(api, { gclid: 'Cj0denied', ad_user_data: 'denied', ad_personalization: 'denied', created_at: '2026-11-14T08:00:00Z' });
    await lead(api, { gclid: 'Cj0withdrawn', marketing_consent_withdrawn_at: '2026-11-15T08:00:00Z', created_at: '2026-11-14T08:00:00Z' });
    const suppressed = await lead(api, { gclid: 'Cj0suppressed', email: 'soppresso@example.it', created_at: '2026-11-14T08:00:00Z' });
    await api.db('marketing_suppressions').insert({
      contact_hash: contactHashesOf(api.config.SUPPRESSION_HASH_SECRET, { email: 'soppresso@example.it', telefono: suppressed.telefono }).email,
      contact_kind: 'email',
      source: 'email',
    });
    await lead(api, { gclid: 'Cj0old', created_at: new Date(NOW.getTime() - 91 * DAY_MS) });
    await lead(api, { gclid: 'Cj0repeat', repeat_of: leads.winter, created_at: '2026-11-02T11:00:00Z' });
    await lead(api, { fbclid: 'IwAR0meta', created_at: '2026-11-14T08:00:00Z' });
  });
  afterAll(async () => {
    await http?.close();
    await api?.close();
  });

  it('answers 401 with a Basic challenge without credentials, or with wrong ones', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: basic(USERNAME, 'wrong-password-123456') }, { authorization: basic('google', PASSWORD) }];
    for (const headers of attempts) {
      const response = await http.get(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="Conversioni Google Ads", charset="UTF-8"');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ message: googleAdsMessages.unauthorized });
    }
    expect(await api.db('conversion_uploads').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('serves the consenting leads’ conversions of the last 90 days, one click id each, times on Italy’s clock', async () => {
    const response = await http.get({ authorization: basic(USERNAME, PASSWORD) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text.split('\r\n').slice(0, 2)).toEqual([
      'Parameters:TimeZone=Europe/Rome',
      'Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization',
    ]);
    expect(conversionLines(text)).toEqual([
      'Cj0summer,,,Richiesta guida,2026-10-24 12:00:00,,EUR,Granted,Granted',
      'Cj0winter,,,Richiesta guida,2026-11-02 11:00:00,,EUR,Granted,Granted',
      'Cj0verified,,,Richiesta guida,2026-11-10 09:00:00,,EUR,Granted,Granted',
      'Cj0verified,,,Lead verificato,2026-11-10 09:05:00,,EUR,Granted,Granted',
      ',0AAAAAgbraid,,Richiesta guida,2026-11-11 09:00:00,,EUR,Granted,Granted',
      ',,CloKwbraid,Richiesta guida,2026-11-12 09:00:00,,EUR,Granted,Granted',
      'Cj0first,,,Richiesta guida,2026-11-13 09:00:00,,EUR,Granted,Granted',
    ]);
  });

  it('records each conversion served as delivered to Google Ads; a later fetch counts one more attempt', async () => {
    const rows = await api.db('conversion_uploads').orderBy(['subject_lead_id', 'event']);
    expect(rows).toHaveLength(7);
    expect(rows.find((row) => row.subject_lead_id === leads.verified && row.event === 'verified_lead')).toMatchObject({
      lead_id: leads.verified,
      platform: 'google_ads',
      event_id: `lead-${leads.verified}-verified`,
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      response_summary: googleAdsMessages.fetchedByGoogleAds,
      last_error: null,
      sent_at: NOW,
    });
    expect(new Set(rows.map((row) => row.subject_lead_id))).toEqual(
      new Set([leads.summer, leads.winter, leads.verified, leads.gbraid, leads.wbraid, leads.firstTouch]),
    );

    const later = new Date(NOW.getTime() + 3600 * 1000);
    api.deps.now = () => later;
    try {
      const response = await http.get({ authorization: basic(USERNAME, PASSWORD) });
      // Each page is recorded as it is sent: the whole file, once read to its end.
      expect(conversionLines(await response.text())).toHaveLength(7);
    } finally {
      api.deps.now = () => NOW;
    }
    const again = await api.db('conversion_uploads').where({ subject_lead_id: leads.winter, event: 'lead' }).first();
    expect(again).toMatchObject({ attempts: 2, sent_at: NOW, updated_at: later });
  });

  it('answers a HEAD with the headers only, recording nothing', async () => {
    const before = await api.db('conversion_uploads').sum({ attempts: 'attempts' }).first();
    const response = await http.get({ authorization: basic(USERNAME, PASSWORD) }, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await api.db('conversion_uploads').sum({ attempts: 'attempts' }).first()).toEqual(before);
  });

  it('counts the fetches and the conversions served on /metrics', async () => {
    const text = await api.deps.metrics.read();
    expect(text).toContain('guida_google_ads_fetches_total{outcome="served"} 2');
    expect(text).toContain('guida_google_ads_fetches_total{outcome="no_credentials"} 1');
    expect(text).toContain('guida_google_ads_fetches_total{outcome="wrong_credentials"} 2');
    expect(text).toContain('guida_google_ads_conversions_served_total{event="lead"} 12');
    expect(text).toContain('guida_google_ads_conversions_served_total{event="verified_lead"} 2');
  });

  it('leaves out a conversion whose consent was withdrawn since the last fetch', async () => {
    await api.db('ebook_requests').where({ id: leads.summer }).update({ marketing_consent_withdrawn_at: NOW });
    const text = await (await http.get({ authorization: basic(USERNAME, PASSWORD) })).text();
    expect(text).not.toContain('Cj0summer');
    expect(conversionLines(text)).toHaveLength(6);
  });
});

describe('the Google Ads conversions URL, not configured', () => {
  it('does not exist (404), whatever the credentials', async () => {
    const api = await createTestApi();
    const http = await serve(api);
    try {
      expect((await http.get()).status).toBe(404);
      expect((await http.get({ authorization: basic(USERNAME, PASSWORD) })).status).toBe(404);
    } finally {
      await http.close();
      await api.close();
    }
  });
});

describe('the Google Ads conversions URL in production', () => {
  it('refuses plain HTTP (403, in Italian) and serves HTTPS as the trusted proxy reports it', async () => {
    // The proxy is this machine (the test's client): it says whether the request came by HTTPS.
    const api = await createTestApi({ ...PRODUCTION_ENV, ...CREDENTIALS, TRUST_PROXY: 'loopback', BEHIND_LOCAL_PROXY: 'true' });
    const http = await serve(api);
    try {
      const insecure = await http.get({ authorization: basic(USERNAME, PASSWORD) });
      expect(insecure.status).toBe(403);
      expect(await insecure.json()).toEqual({ message: googleAdsMessages.httpsRequired });

      const secure = await http.get({ authorization: basic(USERNAME, PASSWORD), 'x-forwarded-proto': 'https' });
      expect(secure.status).toBe(200);
      expect(await secure.text()).toMatch(/^Parameters:TimeZone=Europe\/Rome\r\n/);
      expect(await api.deps.metrics.read()).toContain('guida_google_ads_fetches_total{outcome="insecure"} 1');

      // A scanner gets 429s long before a password is at risk.
      let status = 0;
      for (let attempt = 0; attempt < 30 && status !== 429; attempt += 1) {
        status = (await http.get({ 'x-forwarded-proto': 'https' })).status;
      }
      expect(status).toBe(429);
    } finally {
      await http.close();
      await api.close();
    }
  });
});
