import { describe, expect, it } from 'vitest';
import { listCrmDue } from '@guida/shared/deliveries/crm-deliveries';
import { reopenSms } from '@guida/shared/deliveries/sms-deliveries';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { insertLead } from '@guida/testing/lead-fixture';
import { freePort } from '@guida/testing/free-port';
import { leadVerification, useVerifyingApi, verificationSetup } from '../testing/lead-verification';
import { createTestApi } from '../testing/test-api';

/** A lead becomes reachable with the first `delivered` report of its SMS (decision 059). */

const t = useVerifyingApi();

const reachableAt = async (leadId: number) => (await t.api.db('ebook_requests').where({ id: leadId }).first()).reachable_at as Date | null;
const smsDeliveredEvents = (leadId: number) => t.api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.sms_delivered' });

describe('the SMS status callback makes a lead reachable', () => {
  it('sets reachable_at on the first delivered report and creates one lead.sms_delivered delivery, enqueued', async () => {
    const lead = await insertLead(t.api.db);
    const sid = await t.verify.handedToTwilio(lead.leadId);
    expect((await t.verify.report(sid, 'sent')).status).toBe(204);
    expect(await reachableAt(lead.leadId)).toBeNull();
    expect(await smsDeliveredEvents(lead.leadId)).toEqual([]);

    expect((await t.verify.report(sid, 'delivered')).status).toBe(204);
    const first = await reachableAt(lead.leadId);
    expect(first).toBeInstanceOf(Date);
    // The same instant as the SMS's own delivery time: one statement wrote both.
    const sms = await t.api.db('sms_messages').where({ lead_id: lead.leadId }).first();
    expect(first).toEqual(sms.delivered_at);
    const [delivery, ...more] = await smsDeliveredEvents(lead.leadId);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ subject_lead_id: lead.leadId, status: 'pending', attempts: 0 });
    const job = await t.api.deps.queues
      .queue('crm')
      .getJob(deliverToCrmJob.jobId({ leadId: lead.leadId, deliveryId: delivery.id, event: 'lead.sms_delivered' }));
    expect(job?.data).toMatchObject({ leadId: lead.leadId, deliveryId: delivery.id, event: 'lead.sms_delivered' });

    // Twilio repeats its callbacks: nothing changes.
    expect((await t.verify.report(sid, 'delivered')).status).toBe(204);
    expect(await reachableAt(lead.leadId)).toEqual(first);
    expect(await smsDeliveredEvents(lead.leadId)).toHaveLength(1);
  });

  it('does not make a lead reachable for an SMS that failed or was not delivered', async () => {
    for (const status of ['undelivered', 'failed']) {
      const lead = await insertLead(t.api.db);
      expect((await t.verify.report(await t.verify.handedToTwilio(lead.leadId), status)).status).toBe(204);
      expect(await reachableAt(lead.leadId)).toBeNull();
      expect(await smsDeliveredEvents(lead.leadId)).toEqual([]);
    }
  });

  it('keeps the first time when an SMS sent again is delivered again, and tells the CRM once', async () => {
    const lead = await insertLead(t.api.db);
    await t.verify.smsDelivered(lead.leadId);
    const first = await reachableAt(lead.leadId);
    // The admin's resend: the SMS goes back to pending and is delivered once more.
    await reopenSms(t.api.db, lead.leadId, 30, 'admin-resend');
    await t.verify.smsDelivered(lead.leadId);
    expect((await t.api.db('sms_messages').where({ lead_id: lead.leadId }).first()).status).toBe('delivered');
    expect(await reachableAt(lead.leadId)).toEqual(first);
    expect(await smsDeliveredEvents(lead.leadId)).toHaveLength(1);
  });
});

describe('the SMS status callback while Redis is down', () => {
  it('still makes the lead reachable, and leaves its CRM delivery to the sweeper', async () => {
    const setup = verificationSetup();
    const down = await createTestApi({ ...setup.env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const lead = await insertLead(down.db);
      await leadVerification(down).smsDelivered(lead.leadId);
      expect((await down.db('ebook_requests').where({ id: lead.leadId }).first()).reachable_at).toBeInstanceOf(Date);
      const [delivery] = await down.db('crm_deliveries').where({ lead_id: lead.leadId, event: 'lead.sms_delivered' });
      expect(delivery).toMatchObject({ status: 'pending' });
      const due = await listCrmDue(down.db, { graceMs: 0, claimTimeoutMs: 60_000, limit: 100 });
      expect(due).toContainEqual({ deliveryId: delivery.id, leadId: lead.leadId, event: 'lead.sms_delivered', abandoned: false });
    } finally {
      await down.close();
      setup.remove();
    }
  });
});
