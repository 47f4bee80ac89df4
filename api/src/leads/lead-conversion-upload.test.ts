import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSION_SKIP_REASONS } from '@guida/shared/deliveries/conversion-uploads';
import { sendConversionJob } from '@guida/shared/jobs/conversions';
import { leadDetailSchema } from '@guida/shared/schemas/admin';
import { waitFor } from '@guida/testing/wait-for';
import { signInAsAdmin } from '../testing/admin-session';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

/**
 * The Meta `lead` conversion upload (decision 061) is stored with the lead, in its own
 * statement, only while Meta is configured and only for a visitor whose marketing cookie
 * choice the server recorded; the job goes to the conversions queue without holding the
 * answer. A withdrawal skips what is not yet sent, a claimed upload included; the admin's
 * lead detail lists every upload.
 */
const META_ON = { META_PIXEL_ID: '1234567890123', META_CAPI_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBAKZBtestZBtokenZA1234567890' };
let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

beforeAll(async () => {
  api = await createTestApi(META_ON);
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await api.close();
});

async function sendLead(marketingCookies: boolean | null, to: TestApi = api) {
  let cookieConsentSessionId: string | undefined;
  if (marketingCookies !== null) {
    cookieConsentSessionId = randomBytes(18).toString('base64url');
    const choice = await request(to.app)
      .post('/api/cookie-consent')
      .send({ sessionId: cookieConsentSessionId, essential: true, analytics: false, marketing: marketingCookies, preferences: false });
    expect(choice.status).toBe(201);
  }
  const response = await request(to.app)
    .post('/api/ebook-request')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ ...validLead(), fbclid: 'IwAR0intake', cookieConsentSessionId }));
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as number;
}

const uploadsOf = (leadId: number) => api.db('conversion_uploads').where({ subject_lead_id: leadId }).orderBy('id');
const jobOf = (uploadId: number) => api.deps.queues.queue('conversions').getJob(sendConversionJob.jobId({ uploadId }));

describe('the Meta conversion of a new lead', () => {
  it('is stored with a lead whose visitor accepted the marketing cookies, and its job enqueued', async () => {
    const leadId = await sendLead(true);
    const [upload, ...others] = await uploadsOf(leadId);
    expect(others).toEqual([]);
    expect(upload).toMatchObject({
      lead_id: leadId,
      subject_lead_id: leadId,
      platform: 'meta',
      event: 'lead',
      event_id: `lead-${leadId}`,
      status: 'pending',
      attempts: 0,
      sent_at: null,
    });
    const job = await waitFor(() => jobOf(upload.id), { what: 'the conversion job' });
    expect(job.data).toMatchObject({ uploadId: upload.id });
  });

  it('is not stored, and nothing enqueued, for a lead without a recorded marketing choice or with marketing refused', async () => {
    for (const choice of [null, false]) {
      const leadId = await sendLead(choice);
      expect(await api.db('ebook_requests').where({ id: leadId }).first()).toMatchObject({ ad_user_data: 'denied', fbclid: null });
      expect(await uploadsOf(leadId), String(choice)).toEqual([]);
    }
    expect(await api.db('conversion_uploads').count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('is neither stored nor enqueued while Meta is not configured', async () => {
    const off = await createTestApi();
    try {
      const leadId = await sendLead(true, off);
      expect(await off.db('ebook_requests').where({ id: leadId }).first()).toMatchObject({ ad_user_data: 'granted', fbclid: 'IwAR0intake' });
      expect(await off.db('conversion_uploads').where({ subject_lead_id: leadId })).toEqual([]);
      expect(await off.deps.queues.queue('conversions').getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
    } finally {
      await off.close();
    }
  });

  it('is skipped when the person withdraws the marketing consent, even claimed by a worker that stopped', async () => {
    const claimedLeadId = await sendLead(true);
    const [claimed] = await uploadsOf(claimedLeadId);
    await api.db('conversion_uploads').where({ id: claimed.id }).update({ status: 'sending', attempts: 1 });
    const response = await admin.agent.post(`/api/admin/leads/${claimedLeadId}/withdraw-marketing`).set('X-CSRF-Token', admin.csrfToken);
    expect(response.status).toBe(200);
    expect((await uploadsOf(claimedLeadId))[0]).toMatchObject({ id: claimed.id, status: 'skipped', last_error: CONVERSION_SKIP_REASONS.withdrawn });
  });

  it('is skipped when the person withdraws the marketing consent before it went, and listed on the lead’s detail', async () => {
    const leadId = await sendLead(true);
    const [upload] = await uploadsOf(leadId);
    const withdrawn = await admin.agent.post(`/api/admin/leads/${leadId}/withdraw-marketing`).set('X-CSRF-Token', admin.csrfToken);
    expect(withdrawn.status).toBe(200);
    expect((await uploadsOf(leadId))[0]).toMatchObject({ id: upload.id, status: 'skipped', last_error: CONVERSION_SKIP_REASONS.withdrawn });

    const detail = await admin.agent.get(`/api/admin/leads/${leadId}`);
    expect(detail.status).toBe(200);
    const { conversions } = leadDetailSchema.parse(detail.body);
    expect(conversions).toEqual([
      {
        id: upload.id,
        platform: 'meta',
        event: 'lead',
        eventId: `lead-${leadId}`,
        status: 'skipped',
        attempts: 0,
        responseStatus: null,
        responseSummary: null,
        lastError: CONVERSION_SKIP_REASONS.withdrawn,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        sentAt: null,
      },
    ]);
  });
});
