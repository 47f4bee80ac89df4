import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { createLogger } from '@guida/shared/server/logger';
import { insertLead } from '@guida/testing/lead-fixture';
import { claimTimeouts } from '../claim-timeouts';
import { createTestWorker, type TestWorker } from '../testing/test-worker';

let worker: TestWorker;
const logger = createLogger({ service: 'sweeper-test', level: 'silent' });

beforeAll(async () => {
  // No workers running: the test looks at the jobs the sweep creates.
  worker = await createTestWorker({}, { start: false });
});
afterAll(async () => {
  await worker.close();
});

const sweepWithGrace = (graceMs: number) => worker.sweeper({ graceMs, logger });

describe('sweeping unsent deliveries', () => {
  it('enqueues pending and retrying deliveries that have no job, once', async () => {
    const pending = await insertLead(worker.db);
    const retrying = await insertLead(worker.db);
    await worker.db('sms_messages').where({ lead_id: retrying.leadId }).update({ status: 'retrying' });
    const sent = await insertLead(worker.db);
    await worker.db('sms_messages').where({ lead_id: sent.leadId }).update({ status: 'sent' });
    const [email] = await worker.db('email_messages')
      .insert({ lead_id: pending.leadId, kind: 'guide-link' })
      .returning('id');

    const result = await sweepWithGrace(0)();
    expect(result).toMatchObject({ sms: 2, crm: 3, email: 1 });

    const sms = worker.deps.queues.queue('sms');
    expect((await sms.getJob(`lead-${pending.leadId}`))?.data).toEqual({ leadId: pending.leadId });
    expect((await sms.getJob(`lead-${retrying.leadId}`))?.data).toEqual({ leadId: retrying.leadId });
    expect(await sms.getJob(`lead-${sent.leadId}`)).toBeUndefined();
    const crmJob = await worker.deps.queues.queue('crm').getJob(`lead-${pending.leadId}`);
    expect(crmJob?.data).toEqual({ leadId: pending.leadId, deliveryId: pending.crmDeliveryId, event: 'lead.created' });
    expect(await worker.deps.queues.queue('email').getJob(`email-${email.id}`)).toBeDefined();

    // A second sweep finds the jobs already there: nothing doubles.
    await sweepWithGrace(0)();
    expect(await sms.getJobCounts('waiting')).toEqual({ waiting: 2 });
  });

  it('replaces a finished job when its delivery was reopened since (a resend while Redis was down)', async () => {
    const sms = worker.deps.queues.queue('sms');
    await sms.drain();
    await worker.db('sms_messages').update({ status: 'sent' });
    const lead = await insertLead(worker.db);
    await worker.deps.queues.enqueue(sendGuideSmsJob, { leadId: lead.leadId });
    // The first job runs to completion and stays kept under its id.
    const manual = new Worker('sms', null, { connection: sms.opts.connection, prefix: sms.opts.prefix });
    try {
      const job = await manual.getNextJob('sweeper-test');
      expect(job?.id).toBe(`lead-${lead.leadId}`);
      await job!.moveToCompleted('sent', 'sweeper-test', false);
    } finally {
      await manual.close();
    }
    await worker.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'sent' });
    expect(await sms.getJobState(`lead-${lead.leadId}`)).toBe('completed');

    // Reopened by an admin while the enqueue failed: only the sweeper can add it again.
    await worker.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'pending' });
    await sweepWithGrace(0)();
    expect(await sms.getJobState(`lead-${lead.leadId}`)).toBe('waiting');

    // A job still waiting is left as it is.
    const waiting = await sms.getJob(`lead-${lead.leadId}`);
    await sweepWithGrace(0)();
    expect((await sms.getJob(`lead-${lead.leadId}`))?.timestamp).toBe(waiting?.timestamp);
  });

  it('leaves fresh deliveries to the API, which enqueues them itself', async () => {
    const fresh = await insertLead(worker.db);
    await sweepWithGrace(60_000)();
    expect(await worker.deps.queues.queue('sms').getJob(`lead-${fresh.leadId}`)).toBeUndefined();
  });

  it('enqueues claims older than their claim timeout, for their job to take over, and leaves fresh claims', async () => {
    const timeouts = claimTimeouts(worker.config);
    const stale = await insertLead(worker.db);
    const fresh = await insertLead(worker.db);
    const claim = (table: string, where: Record<string, number>, ageMs: number) =>
      worker.db(table)
        .where(where)
        .update({ status: 'sending', updated_at: worker.db.raw('now() - make_interval(secs => ?)', [ageMs / 1000]) });
    await claim('sms_messages', { lead_id: stale.leadId }, timeouts.sms + 1000);
    await claim('crm_deliveries', { id: stale.crmDeliveryId }, timeouts.crm + 1000);
    await claim('sms_messages', { lead_id: fresh.leadId }, timeouts.sms - 5000);
    await claim('crm_deliveries', { id: fresh.crmDeliveryId }, timeouts.crm - 5000);
    const [staleEmail, freshEmail] = await worker.db('email_messages')
      .insert([
        { lead_id: stale.leadId, kind: 'guide-link' },
        { lead_id: fresh.leadId, kind: 'guide-link' },
      ])
      .returning('id');
    await claim('email_messages', { id: staleEmail.id }, timeouts.email + 1000);
    await claim('email_messages', { id: freshEmail.id }, timeouts.email - 5000);

    // A long grace: only the abandoned claims are due, not the other tests' rows.
    const result = await sweepWithGrace(60 * 60_000)();
    expect(result).toMatchObject({ sms: 1, crm: 1, email: 1, abandonedClaims: 3 });

    // The claims stay as they are: the job that runs next takes them over.
    expect(await worker.db('sms_messages').where({ lead_id: stale.leadId }).first()).toMatchObject({ status: 'sending' });
    expect((await worker.deps.queues.queue('sms').getJob(`lead-${stale.leadId}`))?.data).toEqual({ leadId: stale.leadId });
    expect((await worker.deps.queues.queue('crm').getJob(`lead-${stale.leadId}`))?.data).toEqual({
      leadId: stale.leadId,
      deliveryId: stale.crmDeliveryId,
      event: 'lead.created',
    });
    expect((await worker.deps.queues.queue('email').getJob(`email-${staleEmail.id}`))?.data).toEqual({
      emailMessageId: staleEmail.id,
    });

    expect(await worker.deps.queues.queue('sms').getJob(`lead-${fresh.leadId}`)).toBeUndefined();
    expect(await worker.deps.queues.queue('crm').getJob(`lead-${fresh.leadId}`)).toBeUndefined();
    expect(await worker.deps.queues.queue('email').getJob(`email-${freshEmail.id}`)).toBeUndefined();
  });

  it('closes 24-hour phone windows that are over', async () => {
    const lead = await insertLead(worker.db);
    await worker.db('recent_phone_requests').insert([
      { telefono: '+393400000001', lead_id: lead.leadId, requested_at: worker.db.raw("now() - interval '25 hours'") },
      { telefono: '+393400000002', lead_id: lead.leadId },
    ]);
    const result = await sweepWithGrace(0)();
    expect(result.closedWindows).toBe(1);
    const left = await worker.db('recent_phone_requests').pluck('telefono');
    expect(left).toEqual(['+393400000002']);
  });
});
