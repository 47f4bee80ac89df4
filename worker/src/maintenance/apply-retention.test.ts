import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasureDateOf, gdprEmails } from '@guida/shared/gdpr-server-texts';
import { analyticsDeadLettersKey } from '@guida/shared/jobs/analytics-stream';
import { emailHash } from '@guida/shared/server/personal-data-hash';
import { insertLead } from '@guida/testing/lead-fixture';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { createApplyRetention } from './apply-retention';

let smtp: SmtpCapture;
let worker: TestWorker;
let applyRetention: ReturnType<typeof createApplyRetention>;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  worker = await createTestWorker({ SMTP_URL: smtp.url });
  applyRetention = createApplyRetention({
    db: worker.db,
    queues: worker.deps.queues,
    logger: worker.deps.logger,
    redis: worker.deps.connection,
    redisKeyPrefix: worker.config.REDIS_KEY_PREFIX,
    retentionMonths: 24,
    noticeDays: 30,
    analyticsRetentionMonths: 13,
    // Small batches, few per run: the tables are emptied over several runs.
    analyticsBatchSize: 5,
    maxBatches: 2,
  });
});
afterAll(async () => {
  await worker.close();
  await smtp.close();
});

const DAY = 24 * 3600 * 1000;
/** The clock moved forward: `months` calendar months and `days` days after `from`. */
function later(from: Date, months: number, days = 0) {
  const moved = new Date(from);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  return new Date(moved.getTime() + days * DAY);
}

const count = async (table: string) => Number((await worker.db(table).count({ n: '*' }).first())?.n);

async function insertPageViews(n: number, at: string) {
  await worker.db('page_views').insert(
    Array.from({ length: n }, () => ({
      event_id: worker.db.raw('gen_random_uuid()'),
      session_id: 'sessione-anonima',
      path: '/',
      timestamp: worker.db.raw(at),
    })),
  );
}

describe('retention', () => {
  it('deletes old analytics rows in small batches over several runs, and cleans up data requests', async () => {
    const start = new Date();
    await insertPageViews(12, 'now()');
    await insertPageViews(3, "now() + interval '60 days'");
    await worker.db('cookie_consents').insert([{ session_id: 'vecchia-scelta' }, { session_id: 'altra-scelta' }]);
    await worker.db('conversion_funnel').insert({ event_id: worker.db.raw('gen_random_uuid()'), session_id: 's', step: 'landing' });

    const email = 'scaduta@example.it';
    const [unconfirmed] = await worker.db('gdpr_data_requests')
      .insert({ email, email_hash: emailHash(email), request_type: 'access' })
      .returning('id');
    const [exported] = await worker.db('gdpr_data_requests')
      .insert({ email: 'export@example.it', request_type: 'access', status: 'completed' })
      .returning('id');
    await worker.db('gdpr_exports').insert({
      data_request_id: exported.id,
      json_body: '{}',
      csv_body: '',
      token_hash: 'a'.repeat(64),
      expires_at: worker.db.raw("now() + interval '7 days'"),
    });
    const [deletion] = await worker.db('gdpr_data_requests')
      .insert({
        email: 'cancellato@example.it',
        request_type: 'deletion',
        status: 'completed',
        erased_at: worker.db.fn.now(),
        completed_at: worker.db.fn.now(),
      })
      .returning('id');

    // Thirteen months and a day later: only the rows from "now" are past the period.
    const first = await applyRetention(later(start, 13, 1));
    expect(first.analytics).toMatchObject({ page_views: 10, cookie_consents: 2, conversion_funnel: 1 });
    expect(await count('page_views')).toBe(5);
    expect(first).toMatchObject({ exports: 1, unconfirmed: 1, requesters: 1 });
    expect(await worker.db('gdpr_data_requests').where({ id: unconfirmed.id }).first()).toBeUndefined();
    expect(await worker.db('gdpr_exports').where({ data_request_id: exported.id }).first()).toBeUndefined();
    expect((await worker.db('gdpr_data_requests').where({ id: deletion.id }).first()).email).toBeNull();

    const second = await applyRetention(later(start, 13, 1));
    expect(second.analytics.page_views).toBe(2);
    expect(await count('page_views')).toBe(3);
  });

  it('notifies a lead once before its period ends, then erases it', async () => {
    const young = await insertLead(worker.db, {
      nome: 'Giovanna',
      email: 'giovanna.recente@example.it',
      created_at: worker.db.raw("now() + interval '90 days'"),
    });
    const old = await insertLead(worker.db, { nome: 'Eleonora', cognome: 'Vitale', email: 'eleonora.vitale@example.it' });
    const created = (await worker.db('ebook_requests').where({ id: old.leadId }).first()).created_at as Date;

    // Forty days before the end: still too early for the notice.
    expect((await applyRetention(later(created, 24, -40))).notified).toBe(0);

    // Ten days before the end: one notice.
    const noticeRun = await applyRetention(later(created, 24, -10));
    expect(noticeRun).toMatchObject({ notified: 1, erased: 0 });
    expect(await worker.db('ebook_requests').where({ id: old.leadId }).first()).toMatchObject({ data_retention_notified: true });
    const notice = await waitFor(() => smtp.emails.find((e) => e.to.includes('eleonora.vitale@example.it')));
    expect(notice.subject).toBe(gdprEmails.retentionNoticeSubject);
    expect(notice.text).toContain('Ciao Eleonora,');
    expect(notice.text).toContain(`Il ${erasureDateOf(created, 24)} questo periodo finisce`);
    expect((await applyRetention(later(created, 24, -5))).notified).toBe(0);
    expect(await worker.db('email_messages').where({ lead_id: old.leadId, kind: 'retention-notice' })).toHaveLength(1);

    // A day after the end: erased, like a deletion request, and the CRM is told.
    const eraseRun = await applyRetention(later(created, 24, 1));
    expect(eraseRun.erased).toBe(1);
    expect(await worker.db('ebook_requests').where({ id: old.leadId }).first()).toBeUndefined();
    expect(await worker.db('sms_messages').where({ lead_id: old.leadId }).first()).toBeUndefined();
    expect(await worker.db('ebook_requests').where({ id: young.leadId }).first()).toMatchObject({ nome: 'Giovanna' });
    const erasure = await worker.db('gdpr_erasures').where({ reason: 'retention' }).first();
    expect(erasure).toMatchObject({ lead_ids: [old.leadId], email_hash: null, data_request_id: null });
    expect(await worker.db('crm_deliveries').where({ subject_lead_id: old.leadId, event: 'lead.deleted' }).first()).toBeDefined();
    const createdDelivery = await worker.db('crm_deliveries').where({ id: old.crmDeliveryId }).first();
    expect(createdDelivery).toMatchObject({ lead_id: null, subject_lead_id: old.leadId });
  });

  it('forgets what no other rule reached: old funnel days and dead letters, old audit entries and answered data requests', async () => {
    const start = new Date();
    const deadLetters = analyticsDeadLettersKey(worker.config.REDIS_KEY_PREFIX);
    const letter = (at: Date) => JSON.stringify({ at: at.toISOString(), entryId: '1-0', reason: 'prova', raw: '{}' });
    await worker.deps.connection.del(deadLetters);
    // Newest first, as the consumer pushes them.
    await worker.deps.connection.rpush(deadLetters, letter(later(start, 2)), letter(start));
    const today = start.toISOString().slice(0, 10);
    const recentDay = later(start, 2).toISOString().slice(0, 10);
    for (const day of [today, recentDay]) {
      await worker.db('funnel_daily').insert({ day, landing_path: '/', utm_source: '(direct)', landing: 1, form_view: 1, form_start: 0, form_submit: 0, success: 0 });
      await worker.db('funnel_daily_days').insert({ day });
    }
    const [audited] = await worker.db('admin_audit_log').insert({ username: 'admin', action: 'login_success' }).returning('id');
    const answered = await worker.db('gdpr_data_requests')
      .insert([
        { email: 'accesso@example.it', request_type: 'access', status: 'completed', completed_at: worker.db.fn.now() },
        { email: 'rettifica@example.it', request_type: 'rectification', status: 'rejected', completed_at: worker.db.fn.now() },
        { request_type: 'deletion', status: 'completed', erased_at: worker.db.fn.now(), completed_at: worker.db.fn.now() },
        { email: 'aperta@example.it', request_type: 'access', status: 'confirmed' },
      ])
      .returning<{ id: number; request_type: string; status: string }[]>(['id', 'request_type', 'status']);

    // Thirteen months and a day later: the analytics period is over for today's rows only.
    const analyticsRun = await applyRetention(later(start, 13, 1));
    expect(analyticsRun).toMatchObject({ funnelDays: 1, deadLetters: 1, auditLog: 0, answeredRequests: 0 });
    expect(await worker.db('funnel_daily').pluck('day')).toHaveLength(1);
    expect(await worker.db('funnel_daily_days').where('day', today)).toEqual([]);
    expect((await worker.deps.connection.lrange(deadLetters, 0, -1)).map((raw) => JSON.parse(raw).at)).toEqual([later(start, 2).toISOString()]);
    expect(await worker.db('admin_audit_log').where({ id: audited.id }).first()).toBeDefined();

    // Twenty-four months and a day: the leads' period is over; so are the audit entry and the
    // answered requests but the deletion (the proof of an erasure) and the one still open.
    const leadRun = await applyRetention(later(start, 24, 1));
    expect(leadRun).toMatchObject({ auditLog: 1, answeredRequests: 2 });
    expect(await worker.db('admin_audit_log').where({ id: audited.id }).first()).toBeUndefined();
    const left = await worker.db('gdpr_data_requests').whereIn('id', answered.map((request) => request.id)).pluck('request_type');
    expect(left.sort()).toEqual(['access', 'deletion']);
  });
});

