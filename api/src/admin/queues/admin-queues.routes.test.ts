import { Worker } from 'bullmq';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsDeadLetterCountKey,
  analyticsDeadLettersKey,
  analyticsStreamKey,
} from '@guida/shared/jobs/analytics-stream';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { adminMessages } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { WORKER_CONNECTION } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';
import { queueStats } from '@guida/shared/server/queue-stats';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
beforeAll(async () => {
  api = await createTestApi({ SMS_RATE_PER_SECOND: '1' });
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await api.close();
});

describe('GET /api/admin/queues', () => {
  it('counts each queue, the oldest waiting SMS, the analytics backlog and the drain time', async () => {
    const leadIds = Array.from({ length: 150 }, (_, index) => 1000 + index);
    await api.deps.queues.enqueueMany(sendGuideSmsJob, leadIds.map((leadId) => ({ leadId })));
    await api.deps.queues.enqueue(deliverToCrmJob, { deliveryId: 1, leadId: 1, event: 'lead.created' });
    const stream = analyticsStreamKey(api.prefix);
    for (let index = 0; index < 4; index += 1) await api.deps.redis.xadd(stream, '*', 'events', '[]');
    await api.deps.redis.xgroup('CREATE', stream, ANALYTICS_CONSUMER_GROUP, '0');
    // A consumer read 3 entries and acknowledged none yet: 3 pending, 1 not read.
    await api.deps.redis.xreadgroup('GROUP', ANALYTICS_CONSUMER_GROUP, 'test', 'COUNT', 3, 'STREAMS', stream, '>');

    const response = await admin.agent.get('/api/admin/queues');
    expect(response.status).toBe(200);
    expect(response.body.queues.map((queue: { name: string }) => queue.name)).toEqual(
      expect.arrayContaining(['sms', 'crm', 'email', 'maintenance']),
    );
    const sms = response.body.queues.find((queue: { name: string }) => queue.name === 'sms');
    expect(sms).toEqual({
      name: 'sms',
      waiting: 150,
      active: 0,
      delayed: 0,
      failed: 0,
      completed: 0,
      skipped: null,
      oldestWaitingSeconds: expect.any(Number),
    });
    expect(sms.oldestWaitingSeconds).toBeLessThan(60);
    expect(response.body.queues.find((queue: { name: string }) => queue.name === 'crm').waiting).toBe(1);
    expect(response.body.analytics).toEqual({
      length: 4,
      pending: 3,
      lag: 1,
      deadLetters: { total: 0, kept: 0, latest: [] },
    });
    // 150 SMS at 1 per second: the last would leave after 150 s, beyond the 2-minute promise.
    expect(response.body.sms).toEqual({ ratePerSecond: 1, projectedDrainSeconds: 150, promiseAtRisk: true });
  });

  it('counts the analytics dead letters and shows the latest with their reason', async () => {
    const letter = (reason: string) => JSON.stringify({ at: '2026-11-24T10:00:00.000Z', entryId: '1-0', reason, raw: '{}' });
    await api.deps.redis.lpush(analyticsDeadLettersKey(api.prefix), letter('22021: invalid byte sequence'), letter('not an analytics event'));
    await api.deps.redis.set(analyticsDeadLetterCountKey(api.prefix), 1500);
    const response = await admin.agent.get('/api/admin/queues');
    expect(response.body.analytics.deadLetters).toEqual({
      total: 1500,
      kept: 2,
      latest: [
        { at: '2026-11-24T10:00:00.000Z', reason: 'not an analytics event' },
        { at: '2026-11-24T10:00:00.000Z', reason: '22021: invalid byte sequence' },
      ],
    });
  });

  it('flags a waiting SMS older than two minutes even when the queue is short', async () => {
    const stats = await queueStats({
      db: api.db,
      queues: api.deps.queues,
      redis: api.deps.redis,
      prefix: api.prefix,
      smsRatePerSecond: 1000,
      now: Date.now() + 10 * 60_000,
    });
    expect(stats.sms.projectedDrainSeconds).toBe(1);
    expect(stats.queues.find((queue) => queue.name === 'sms')!.oldestWaitingSeconds).toBeGreaterThanOrEqual(600);
    expect(stats.sms.promiseAtRisk).toBe(true);
  });

  it('tells skipped CRM deliveries (no CRM configured) from completed ones', async () => {
    const skipping = await createTestApi();
    const { agent } = await signInAsAdmin(skipping);
    const leads = [await insertLead(skipping.db), await insertLead(skipping.db)];
    const queue = skipping.deps.queues.queue('crm');
    for (const lead of leads) {
      await queue.add(deliverToCrmJob.name, { deliveryId: lead.crmDeliveryId, leadId: lead.leadId, event: 'lead.created' });
    }
    // What the worker does without CRM_WEBHOOK_URL for the first, and a real delivery for the second.
    await skipping.db('crm_deliveries').where({ id: leads[0]!.crmDeliveryId }).update({ status: 'skipped', updated_at: skipping.db.fn.now() });
    await skipping.db('crm_deliveries').where({ id: leads[1]!.crmDeliveryId }).update({ status: 'delivered', delivered_at: skipping.db.fn.now() });
    const worker = new Worker('crm', async () => undefined, {
      connection: skipping.deps.redis.duplicate(WORKER_CONNECTION),
      prefix: skipping.prefix,
    });
    try {
      await waitFor(async () => (await queue.getCompletedCount()) === 2, { what: 'both CRM jobs to complete' });
    } finally {
      await worker.close();
    }
    const response = await agent.get('/api/admin/queues');
    expect(response.body.queues.find((entry: { name: string }) => entry.name === 'crm')).toMatchObject({ completed: 1, skipped: 1 });
    await skipping.close();
  });

  it('answers 503 in Italian when Redis cannot be reached', async () => {
    const down = await createTestApi({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      // Sessions live in Redis too: without it, no session can be checked (503, not 401).
      const response = await request(down.app).get('/api/admin/queues').set('Cookie', 'guida_admin=some-session-id');
      expect(response.status).toBe(503);
      expect(response.body.message).toMatch(/[Rr]iprova/);
    } finally {
      await down.close();
    }
  });
});

describe('failed jobs', () => {
  it('lists a failed job with its reason, and retries it after reopening its database row', async () => {
    const failing = await createTestApi();
    const { agent, csrfToken } = await signInAsAdmin(failing);
    const lead = await insertLead(failing.db);
    await failing.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'failed', error_code: '21211' });
    const queue = failing.deps.queues.queue('sms');
    // One attempt, so the provider's refusal fails the job for good at once.
    await queue.add(sendGuideSmsJob.name, { leadId: lead.leadId }, { jobId: `lead-${lead.leadId}`, attempts: 1 });
    const worker = new Worker(
      'sms',
      async () => {
        throw new Error('Invalid To phone number (21211)');
      },
      { connection: failing.deps.redis.duplicate(WORKER_CONNECTION), prefix: failing.prefix },
    );
    try {
      await waitFor(async () => (await queue.getFailedCount()) > 0, { what: 'the job to fail' });
      await worker.close();

      const failed = await agent.get('/api/admin/queues/sms/failed');
      expect(failed.status).toBe(200);
      expect(failed.body.jobs).toEqual([
        {
          id: `lead-${lead.leadId}`,
          name: 'send-guide-sms',
          failedReason: 'Invalid To phone number (21211)',
          attemptsMade: expect.any(Number),
          failedAt: expect.any(String),
          data: { leadId: lead.leadId },
        },
      ]);

      const retried = await agent.post(`/api/admin/queues/sms/jobs/lead-${lead.leadId}/retry`).set('X-CSRF-Token', csrfToken);
      expect(retried.status).toBe(202);
      expect(retried.body.message).toBe(adminMessages.jobRetried);
      expect(await queue.getJobState(`lead-${lead.leadId}`)).toBe('waiting');
      expect((await queue.getJob(`lead-${lead.leadId}`))!.attemptsMade).toBe(0);
      expect(await failing.db('sms_messages').where({ lead_id: lead.leadId }).first()).toMatchObject({ status: 'pending' });
      expect(await failing.db('admin_audit_log').where({ action: 'retry_job', target_id: `sms:lead-${lead.leadId}` })).toHaveLength(1);

      const gone = await agent.post(`/api/admin/queues/sms/jobs/lead-${lead.leadId}/retry`).set('X-CSRF-Token', csrfToken);
      expect(gone.status).toBe(404);
      expect(gone.body.message).toBe(adminMessages.jobNotFound);
      const unknownQueue = await agent.get('/api/admin/queues/posta/failed');
      expect(unknownQueue.status).toBe(404);
      expect(unknownQueue.body.message).toBe(adminMessages.queueNotFound);
    } finally {
      await worker.close();
      await failing.close();
    }
  }, 30_000);

  it('refuses with 409 to retry a job whose delivery is being sent, or already done, and leaves both alone', async () => {
    const failing = await createTestApi();
    const { agent, csrfToken } = await signInAsAdmin(failing);
    const sending = await insertLead(failing.db);
    const delivered = await insertLead(failing.db);
    await failing.db('sms_messages').where({ lead_id: sending.leadId }).update({ status: 'sending' });
    await failing.db('crm_deliveries').where({ id: delivered.crmDeliveryId }).update({ status: 'delivered' });
    const sms = failing.deps.queues.queue('sms');
    const crm = failing.deps.queues.queue('crm');
    await sms.add(sendGuideSmsJob.name, { leadId: sending.leadId }, { jobId: `lead-${sending.leadId}`, attempts: 1 });
    await crm.add(
      deliverToCrmJob.name,
      { leadId: delivered.leadId, deliveryId: delivered.crmDeliveryId, event: 'lead.created' },
      { jobId: `lead-${delivered.leadId}`, attempts: 1 },
    );
    const failEvery = (queue: string) =>
      new Worker(
        queue,
        async () => {
          throw new Error('provider down');
        },
        { connection: failing.deps.redis.duplicate(WORKER_CONNECTION), prefix: failing.prefix },
      );
    const workers = [failEvery('sms'), failEvery('crm')];
    try {
      await waitFor(async () => (await sms.getFailedCount()) > 0 && (await crm.getFailedCount()) > 0, {
        what: 'both jobs to fail',
      });
      await Promise.all(workers.map((worker) => worker.close()));

      const inFlight = await agent.post(`/api/admin/queues/sms/jobs/lead-${sending.leadId}/retry`).set('X-CSRF-Token', csrfToken);
      expect(inFlight.status).toBe(409);
      expect(inFlight.body.message).toBe(adminMessages.smsInProgress);
      const done = await agent.post(`/api/admin/queues/crm/jobs/lead-${delivered.leadId}/retry`).set('X-CSRF-Token', csrfToken);
      expect(done.status).toBe(409);
      expect(done.body.message).toBe(adminMessages.deliveryFinished);

      expect(await sms.getJobState(`lead-${sending.leadId}`)).toBe('failed');
      expect(await crm.getJobState(`lead-${delivered.leadId}`)).toBe('failed');
      expect(await failing.db('sms_messages').where({ lead_id: sending.leadId }).first()).toMatchObject({ status: 'sending' });
      expect(await failing.db('crm_deliveries').where({ id: delivered.crmDeliveryId }).first()).toMatchObject({ status: 'delivered' });
      expect(await failing.db('admin_audit_log').where({ action: 'retry_job' })).toHaveLength(0);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      await failing.close();
    }
  }, 30_000);
});
