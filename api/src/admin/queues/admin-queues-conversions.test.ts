import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversionEventId } from '@guida/shared/deliveries/conversion-uploads';
import { sendConversionJob } from '@guida/shared/jobs/conversions';
import { adminMessages } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { WORKER_CONNECTION } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

/**
 * The queues tab's retry of a failed conversions job (decision 061): the upload goes back
 * to pending first (`retryFailed`), so the worker, which re-reads it, posts it again; an
 * upload on its way is refused and left alone.
 */
let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await api.close();
});

async function uploadOf(status: string) {
  const lead = await insertLead(api.db, { ad_user_data: 'granted', ad_personalization: 'granted' });
  const [row] = await api
    .db('conversion_uploads')
    .insert({
      lead_id: lead.leadId,
      subject_lead_id: lead.leadId,
      platform: 'meta',
      event: 'lead',
      event_id: conversionEventId(lead.leadId, 'lead'),
      status,
      attempts: 1,
      last_error: status === 'failed' ? 'Meta ha risposto HTTP 400: Invalid parameter' : null,
    })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

describe('retrying a failed conversions job', () => {
  it('reopens a failed upload and runs its job again; refuses one on its way', async () => {
    const failed = await uploadOf('failed');
    const sending = await uploadOf('sending');
    const queue = api.deps.queues.queue('conversions');
    for (const uploadId of [failed, sending]) {
      await queue.add(sendConversionJob.name, { uploadId }, { jobId: sendConversionJob.jobId({ uploadId }), attempts: 1 });
    }
    // What the worker does with a refusal it takes as final.
    const worker = new Worker(
      'conversions',
      async () => {
        throw new Error('Meta ha risposto HTTP 400: Invalid parameter');
      },
      { connection: api.deps.redis.duplicate(WORKER_CONNECTION), prefix: api.prefix },
    );
    try {
      await waitFor(async () => (await queue.getFailedCount()) === 2, { what: 'both jobs to fail' });
      await worker.close();

      const failedJobs = await admin.agent.get('/api/admin/queues/conversions/failed');
      expect(failedJobs.status).toBe(200);
      expect(failedJobs.body.jobs.map((job: { data: unknown }) => job.data)).toEqual(
        expect.arrayContaining([{ uploadId: failed }, { uploadId: sending }]),
      );

      const jobId = sendConversionJob.jobId({ uploadId: failed });
      const retried = await admin.agent.post(`/api/admin/queues/conversions/jobs/${jobId}/retry`).set('X-CSRF-Token', admin.csrfToken);
      expect(retried.status).toBe(202);
      expect(retried.body.message).toBe(adminMessages.jobRetried);
      expect(await queue.getJobState(jobId)).toBe('waiting');
      expect(await api.db('conversion_uploads').where({ id: failed }).first()).toMatchObject({ status: 'pending' });
      expect(await api.db('admin_audit_log').where({ action: 'retry_job', target_id: `conversions:${jobId}` })).toHaveLength(1);

      const inFlightId = sendConversionJob.jobId({ uploadId: sending });
      const inFlight = await admin.agent.post(`/api/admin/queues/conversions/jobs/${inFlightId}/retry`).set('X-CSRF-Token', admin.csrfToken);
      expect(inFlight.status).toBe(409);
      expect(inFlight.body.message).toBe(adminMessages.conversionInProgress);
      expect(await queue.getJobState(inFlightId)).toBe('failed');
      expect(await api.db('conversion_uploads').where({ id: sending }).first()).toMatchObject({ status: 'sending' });
    } finally {
      await worker.close();
    }
  }, 30_000);
});
