import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySmsProviderReport } from '@guida/shared/deliveries/sms-deliveries';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { insertLead } from '@guida/testing/lead-fixture';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';

/** lead.sms_delivered and lead.guide_opened (decision 059), posted like every other event. */

const SECRET = testWebhookSecret('crm verification events');
let crm: FakeCrm;
let worker: TestWorker;

beforeAll(async () => {
  crm = await startFakeCrm({ secret: SECRET });
  worker = await createTestWorker({ CRM_WEBHOOK_URL: crm.url, CRM_WEBHOOK_SECRET: SECRET, CRM_TIMEOUT_MS: '2000' });
});
afterAll(async () => {
  await worker.close();
  await crm.close();
});

const waitForStatus = (id: number, status: string) =>
  waitFor(async () => (await worker.db('crm_deliveries').where({ id }).first()).status === status, {
    what: `CRM delivery ${id} to be ${status}`,
  });

/** Twilio reported the lead's SMS delivered: the statement the API's status callback runs. */
async function reportDelivered(leadId: number) {
  const sid = `SM${String(leadId).padStart(32, '0')}`;
  const sms = await worker.db('sms_messages').where({ lead_id: leadId }).first();
  await worker.db('sms_messages').where({ id: sms.id }).update({ status: 'sent', provider: 'twilio', provider_message_id: sid });
  const changed = await applySmsProviderReport(worker.db, {
    providerMessageId: sid,
    smsId: sms.id,
    status: 'delivered',
    providerStatus: 'delivered',
    errorCode: null,
  });
  return changed!.crmDeliveryId!;
}

/** The lead.guide_opened row the API's download statement writes. */
async function guideOpenedDelivery(leadId: number) {
  const [row] = await worker.db('crm_deliveries')
    .insert({ lead_id: leadId, subject_lead_id: leadId, event: 'lead.guide_opened' })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

describe('verification events to the CRM', () => {
  it('posts lead.sms_delivered, signed, with the lead as in lead.created and when it became reachable', async () => {
    const lead = await insertLead(worker.db, { nome: 'Giulia', email: 'giulia@example.it', utm_source: 'google', utm_campaign: 'autunno' });
    const deliveryId = await reportDelivered(lead.leadId);
    await worker.deps.queues.enqueue(deliverToCrmJob, { deliveryId, leadId: lead.leadId, event: 'lead.sms_delivered' });
    await waitForStatus(deliveryId, 'delivered');

    const [sent, ...more] = crm.requestsFor(deliveryId);
    expect(more).toEqual([]);
    expect(sent!.verified).toBe(true);
    expect(sent!.headers['webhook-id']).toBe(String(deliveryId));
    expect(sent!.headers['x-guida-event']).toBe('lead.sms_delivered');
    const body = new Webhook(SECRET).verify(sent!.body, sent!.headers as Record<string, string>) as Record<string, unknown>;
    const { reachable_at: reachableAt } = await worker.db('ebook_requests').where({ id: lead.leadId }).first();
    expect(body).toMatchObject({
      id: deliveryId,
      event: 'lead.sms_delivered',
      lead: {
        id: lead.leadId,
        nome: 'Giulia',
        email: 'giulia@example.it',
        telefono: lead.telefono,
        utmSource: 'google',
        utmCampaign: 'autunno',
        gdprConsent: true,
        reachableAt: reachableAt.toISOString(),
        engagedAt: null,
      },
    });
    // docs/crm-webhook.md's full example (lead.created) names every field the CRM receives.
    const documented = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(readFileSync('docs/crm-webhook.md', 'utf8'))![1]!) as typeof body;
    expect(Object.keys(documented.lead as object).sort()).toEqual(Object.keys(body.lead as object).sort());
  });

  it('posts lead.guide_opened that the API stored but could not enqueue, once the sweeper finds it', async () => {
    const lead = await insertLead(worker.db, { reachable_at: '2026-12-06T09:00:00Z', engaged_at: '2026-12-06T09:05:00Z' });
    // Redis was down when the API wrote it, so no job.
    const deliveryId = await guideOpenedDelivery(lead.leadId);
    await worker.sweeper()();
    await waitForStatus(deliveryId, 'delivered');
    const [sent] = crm.requestsFor(deliveryId);
    expect(JSON.parse(sent!.body)).toMatchObject({
      event: 'lead.guide_opened',
      lead: { id: lead.leadId, reachableAt: '2026-12-06T09:00:00.000Z', engagedAt: '2026-12-06T09:05:00.000Z' },
    });
  });

  it('posts nothing about a lead erased before its event went out', async () => {
    const lead = await insertLead(worker.db, { engaged_at: '2026-12-06T09:05:00Z' });
    const deliveryId = await guideOpenedDelivery(lead.leadId);
    await worker.db('ebook_requests').where({ id: lead.leadId }).delete();
    await worker.deps.queues.enqueue(deliverToCrmJob, { deliveryId, leadId: lead.leadId, event: 'lead.guide_opened' });
    await waitForStatus(deliveryId, 'skipped');
    expect(crm.requestsFor(deliveryId)).toEqual([]);
  });
});
