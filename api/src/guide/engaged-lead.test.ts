import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { insertLead } from '@guida/testing/lead-fixture';
import { PHONE_BROWSER, useVerifyingApi } from '../testing/lead-verification';

/** A lead becomes engaged with the first real download of its guide (decision 059). */

const t = useVerifyingApi();

const engagedAt = async (leadId: number) => (await t.api.db('ebook_requests').where({ id: leadId }).first()).engaged_at as Date | null;
const guideOpenedEvents = (leadId: number) => t.api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.guide_opened' });

describe('the guide link makes a lead engaged', () => {
  it('sets engaged_at on the first download and creates one lead.guide_opened delivery, enqueued', async () => {
    const lead = await insertLead(t.api.db);
    await t.verify.guideDownloaded(lead.leadId);
    const first = await engagedAt(lead.leadId);
    expect(first).toBeInstanceOf(Date);
    const [download] = await t.api.db('guide_downloads').where({ lead_id: lead.leadId });
    expect(first).toEqual(download.downloaded_at);
    const [delivery, ...more] = await guideOpenedEvents(lead.leadId);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ subject_lead_id: lead.leadId, status: 'pending' });
    const job = await t.api.deps.queues
      .queue('crm')
      .getJob(deliverToCrmJob.jobId({ leadId: lead.leadId, deliveryId: delivery.id, event: 'lead.guide_opened' }));
    expect(job?.data).toMatchObject({ leadId: lead.leadId, deliveryId: delivery.id, event: 'lead.guide_opened' });

    // Again on the same phone, then on another device: counted downloads, but engaged once.
    await t.verify.guideDownloaded(lead.leadId);
    await t.verify.guideDownloaded(lead.leadId, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1');
    expect(await t.api.db('guide_downloads').where({ lead_id: lead.leadId })).toHaveLength(2);
    expect(await engagedAt(lead.leadId)).toEqual(first);
    expect(await guideOpenedEvents(lead.leadId)).toHaveLength(1);
  });

  it('does not count a HEAD, a Range request or a link preview as the guide opened', async () => {
    const lead = await insertLead(t.api.db);
    const link = `/g/${await t.verify.linkOf(lead.leadId)}`;
    expect((await request(t.api.app).head(link).set('User-Agent', PHONE_BROWSER)).status).toBe(200);
    expect((await request(t.api.app).get(link).set('User-Agent', PHONE_BROWSER).set('Range', 'bytes=0-99')).status).toBe(206);
    expect((await request(t.api.app).get(link).set('User-Agent', 'WhatsApp/2.24.1 A')).status).toBe(200);
    expect((await request(t.api.app).get(link).set('User-Agent', 'facebookexternalhit/1.1')).status).toBe(200);
    expect(await engagedAt(lead.leadId)).toBeNull();
    expect(await guideOpenedEvents(lead.leadId)).toEqual([]);
  });

  it('keeps a lead engaged before this release as it was, and tells the CRM nothing more', async () => {
    // Backfilled by the migration from its first download: the CRM was not told of those.
    const lead = await insertLead(t.api.db, { engaged_at: '2026-11-20T10:00:00Z' });
    await t.verify.guideDownloaded(lead.leadId);
    expect(await engagedAt(lead.leadId)).toEqual(new Date('2026-11-20T10:00:00Z'));
    expect(await guideOpenedEvents(lead.leadId)).toEqual([]);
  });
});
