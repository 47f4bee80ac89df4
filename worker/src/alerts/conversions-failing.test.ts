import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertDetailLines } from '@guida/shared/alerts';
import { createAlertEvaluator } from '@guida/shared/server/alerts/evaluate-alerts';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { alertSettingsOf, deliveryAlertMeasures } from './alert-conditions';
import { alertRuntime } from './alerts.queue';

/**
 * The conversions alert (decision 061): Meta refusing or not answering every conversion
 * for ALERT_CONVERSIONS_FAILING_MINUTES, measured from conversion_uploads as the CRM's
 * alert is from crm_deliveries. The evaluations run with the test's clock.
 */
const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
const at = (ms: number) => new Date(T0.getTime() + ms);

let worker: TestWorker;
let evaluate: ReturnType<typeof alertRuntime>['evaluate'];

beforeAll(async () => {
  worker = await createTestWorker(
    {
      META_PIXEL_ID: '1234567890123',
      META_CAPI_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBAKZBtestZBtokenZA1234567890',
      META_GRAPH_API_URL: 'http://127.0.0.1:9',
      ALERT_CONVERSIONS_FAILING_MINUTES: '30',
    },
    { start: false },
  );
  ({ evaluate } = alertRuntime(worker.deps));
});
afterAll(async () => {
  await worker?.close();
});
beforeEach(async () => {
  await worker.db.raw('TRUNCATE ebook_requests, conversion_uploads, alert_incidents, alert_conditions RESTART IDENTITY CASCADE');
});

/** An upload (Meta's unless said) of a new lead, in `status` since `updatedAt`. */
async function upload(status: string, updatedAt: Date, changes: Record<string, unknown> = {}, platform = 'meta') {
  const { leadId } = await insertLead(worker.db, { ad_user_data: 'granted', ad_personalization: 'granted' });
  // Its SMS went long ago: only its conversion matters.
  await worker.db('sms_messages').where({ lead_id: leadId }).update({ status: 'skipped' });
  const [row] = await worker.db('conversion_uploads')
    .insert({ lead_id: leadId, subject_lead_id: leadId, platform, event: 'lead', event_id: `lead-${leadId}`, status, updated_at: updatedAt, ...changes })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

describe('the conversions alert', () => {
  it('opens when Meta has refused every conversion for 30 minutes, and resolves at the next one it takes', async () => {
    await upload('delivered', at(-5 * MINUTE), { response_status: 200 });
    await upload('failed', T0, { response_status: 400 });
    const retrying = await upload('retrying', at(MINUTE), { response_status: 503 });
    expect(await evaluate(T0)).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(29 * MINUTE))).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(30 * MINUTE))).toEqual({ opened: ['conversions_failing'], resolved: [] });

    const [incident] = await worker.db('alert_incidents').where({ kind: 'conversions_failing' });
    expect(incident.details).toEqual({ failingMinutes: 30, thresholdMinutes: 30, failedDeliveries: 2, lastHttpStatus: 503 });
    expect(alertDetailLines({ kind: 'conversions_failing', details: incident.details })).toEqual([
      'Da almeno 30 minuti la Conversions API di Meta rifiuta o non risponde a ogni conversione (soglia 30 minuti).',
      "Conversioni non riuscite dall'ultima accettata: 2.",
      'Ultima risposta: HTTP 503.',
      'I lead e i loro SMS non ne risentono; i dettagli di ogni conversione sono nella scheda del lead.',
    ]);

    // Google Ads' fetches are not Meta's answers: they resolve nothing.
    await upload('delivered', at(31 * MINUTE), { response_status: 200 }, 'google_ads');
    expect(await evaluate(at(31 * MINUTE))).toEqual({ opened: [], resolved: [] });
    await worker.db('conversion_uploads').where({ id: retrying }).update({ status: 'delivered', response_status: 200, updated_at: at(32 * MINUTE) });
    expect(await evaluate(at(32 * MINUTE))).toEqual({ opened: [], resolved: ['conversions_failing'] });
  });

  it('never opens while the Meta Conversions API is not configured', async () => {
    await upload('failed', T0, { response_status: 401 });
    const { conversions_failing: measure } = deliveryAlertMeasures({ ...alertSettingsOf(worker.config), conversionsConfigured: false });
    const evaluateOff = createAlertEvaluator({ db: worker.db, logger: worker.deps.logger, channels: [], measures: { conversions_failing: measure } });
    expect(await evaluateOff(at(60 * MINUTE))).toEqual({ opened: [], resolved: [] });
  });
});
