import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertDetailLines, formatAlertTime } from '@guida/shared/alerts';
import { recordGoogleAdsFetch } from '@guida/shared/deliveries/google-ads-fetches';
import { googleAdsMessages } from '@guida/shared/google-ads-conversions';
import { createAlertEvaluator } from '@guida/shared/server/alerts/evaluate-alerts';
import { contactHashesOf } from '@guida/shared/server/marketing-suppression';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { alertSettingsOf, deliveryAlertMeasures } from './alert-conditions';
import { alertRuntime } from './alerts.queue';

/**
 * The Google Ads alert (decision 062): with the scheduled URL configured, no fetch has
 * served the file for 36 hours while it held a conversion. The evaluations run with the
 * test's clock; the fetches are recorded as the API's URL records them.
 */
const HOUR = 3_600_000;
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const at = (ms: number) => new Date(T0.getTime() + ms);
const NOT_FETCHED = 'google_ads_not_fetched';

let worker: TestWorker;
let evaluate: ReturnType<typeof alertRuntime>['evaluate'];

beforeAll(async () => {
  worker = await createTestWorker(
    { GOOGLE_ADS_EXPORT_USERNAME: 'googleads', GOOGLE_ADS_EXPORT_PASSWORD: 'k8Zq2pW9vR4xT7mB3nL6' },
    { start: false },
  );
  ({ evaluate } = alertRuntime(worker.deps));
});
afterAll(async () => {
  await worker?.close();
});
beforeEach(async () => {
  await worker.db.raw(
    'TRUNCATE ebook_requests, conversion_uploads, marketing_suppressions, alert_incidents, alert_conditions RESTART IDENTITY CASCADE',
  );
});

/** A lead created at `createdAt`, with a gclid and ad consent unless said; its SMS went long ago. */
async function lead(createdAt: Date, changes: Record<string, unknown> = {}) {
  const created = await insertLead(worker.db, {
    gclid: 'Cj0-google',
    ad_user_data: 'granted',
    ad_personalization: 'granted',
    created_at: createdAt,
    ...changes,
  });
  await worker.db('sms_messages').where({ lead_id: created.leadId }).update({ status: 'skipped' });
  return created;
}

/** A fetch by Google at `fetchedAt` that served these leads' request conversions. */
const googleFetched = (leadIds: number[], fetchedAt: Date) =>
  recordGoogleAdsFetch(
    worker.db,
    leadIds.map((leadId) => ({ leadId, event: 'lead' as const })),
    { at: fetchedAt, summary: googleAdsMessages.fetchedByGoogleAds },
  );

const detailsOfOpen = async () => (await worker.db('alert_incidents').where({ kind: NOT_FETCHED }).whereNull('resolved_at').first())?.details;

describe('the Google Ads alert', () => {
  it('opens when Google never fetched a file that has held a conversion for 36 hours, in Italian', async () => {
    const { leadId } = await lead(at(-37 * HOUR));
    expect(await evaluate(at(0))).toEqual({ opened: [NOT_FETCHED], resolved: [] });
    const details = await detailsOfOpen();
    expect(details).toEqual({ lastFetchedAt: null, waitingSince: at(-37 * HOUR).toISOString(), thresholdHours: 36 });
    expect(alertDetailLines({ kind: NOT_FETCHED, details })).toEqual([
      'Google Ads non ha mai scaricato il file delle conversioni (soglia 36 ore).',
      `Il file contiene conversioni che Google Ads non ha scaricato dal ${formatAlertTime(at(-37 * HOUR).toISOString())}.`,
      'Controlla in Google Ads la pianificazione del caricamento (Obiettivi, Conversioni, Caricamenti) e che nome utente e password siano quelli configurati: i tentativi rifiutati non vengono registrati qui. I lead e i loro SMS non ne risentono.',
    ]);

    // Google's next run serves the file: resolved.
    await googleFetched([leadId], at(HOUR));
    expect(await evaluate(at(HOUR))).toEqual({ opened: [], resolved: [NOT_FETCHED] });
  });

  it('opens again 36 hours after the last fetch, while the file still holds conversions', async () => {
    const { leadId } = await lead(at(-48 * HOUR));
    await googleFetched([leadId], at(-24 * HOUR));
    expect(await evaluate(at(0))).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(11 * HOUR))).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(12 * HOUR + 1000))).toEqual({ opened: [NOT_FETCHED], resolved: [] });
    expect(await detailsOfOpen()).toEqual({
      lastFetchedAt: at(-24 * HOUR).toISOString(),
      waitingSince: at(-24 * HOUR).toISOString(),
      thresholdHours: 36,
    });
    expect(alertDetailLines({ kind: NOT_FETCHED, details: await detailsOfOpen() })[0]).toBe(
      `Ultimo scaricamento del file delle conversioni da parte di Google Ads: ${formatAlertTime(at(-24 * HOUR).toISOString())} (soglia 36 ore).`,
    );
  });

  it('stays quiet while the file holds nothing Google may get, or nothing for 36 hours yet', async () => {
    // Too recent to be late.
    await lead(at(-35 * HOUR));
    // Not in the file: no ad consent, withdrawn, a repeat, a click id the file cannot carry,
    // a Meta click only, older than Google's 90 days, suppressed.
    const first = await lead(at(-60 * HOUR), { gclid: null, fbclid: 'IwAR-meta' });
    await lead(at(-40 * HOUR), { ad_user_data: 'denied', ad_personalization: 'denied' });
    await lead(at(-40 * HOUR), { marketing_consent_withdrawn_at: at(-39 * HOUR) });
    await lead(at(-40 * HOUR), { repeat_of: first.leadId });
    await lead(at(-40 * HOUR), { gclid: '-2+3' });
    await lead(at(-91 * 24 * HOUR));
    const suppressed = await lead(at(-40 * HOUR), { email: 'soppresso@example.it' });
    await worker.db('marketing_suppressions').insert({
      contact_hash: contactHashesOf(worker.config.SUPPRESSION_HASH_SECRET, { email: 'soppresso@example.it', telefono: suppressed.telefono }).email,
      contact_kind: 'email',
      source: 'email',
    });
    expect(await evaluate(at(0))).toEqual({ opened: [], resolved: [] });
  });

  it('never opens while the scheduled URL is off', async () => {
    await lead(at(-100 * HOUR));
    const { google_ads_not_fetched: measure } = deliveryAlertMeasures({ ...alertSettingsOf(worker.config), googleAdsExport: null });
    const evaluateOff = createAlertEvaluator({ db: worker.db, logger: worker.deps.logger, channels: [], measures: { google_ads_not_fetched: measure } });
    expect(await evaluateOff(at(0))).toEqual({ opened: [], resolved: [] });
  });

  it('keeps the credentials out of the worker: it knows only that both are set', () => {
    expect([worker.config.GOOGLE_ADS_EXPORT_USERNAME, worker.config.GOOGLE_ADS_EXPORT_PASSWORD]).toEqual([true, true]);
  });
});
