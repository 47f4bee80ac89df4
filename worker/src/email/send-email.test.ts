import { Job } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LEAD_EMAIL_KINDS, sendEmailJob } from '@guida/shared/jobs/email';
import { withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';
import { sha256Hex } from '@guida/shared/server/personal-data-hash';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { TEST_LINK_TOKEN_SECRET, insertLead } from '@guida/testing/lead-fixture';
import { claimTimeouts } from '../claim-timeouts';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { createSendEmail } from './send-email';

let smtp: SmtpCapture;
let worker: TestWorker;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  worker = await createTestWorker({ SMTP_URL: smtp.url, EMAIL_FROM: 'Guida Finanza <guida@example.it>' });
});
afterAll(async () => {
  await worker.close();
  await smtp.close();
});

async function scheduleGuideEmail() {
  const lead = await insertLead(worker.db, { email: `e${Date.now()}@example.it` });
  const [row] = await worker.db('email_messages').insert({ lead_id: lead.leadId, kind: 'guide-link' }).returning('id');
  await worker.deps.queues.enqueue(sendEmailJob, { emailMessageId: row.id });
  return { ...lead, emailMessageId: row.id as number };
}

const waitForStatus = (id: number, status: string) =>
  waitFor(async () => {
    const row = await worker.db('email_messages').where({ id }).first();
    return row.status === status && row;
  }, { what: `email ${id} to be ${status}` });

describe('email queue over a real SMTP server', () => {
  it('retries a temporary SMTP refusal (4xx) and then delivers', async () => {
    smtp.emails.length = 0;
    smtp.rejectNext(1, 451);
    const scheduled = await scheduleGuideEmail();
    const row = await waitForStatus(scheduled.emailMessageId, 'delivered');
    expect(row.attempts).toBe(2);
    expect(row.sent_at).toBeInstanceOf(Date);
    const [email] = await smtp.waitForEmails(1);
    expect(email!.from).toBe('guida@example.it');
    expect(email!.text).toContain(`https://guida.example.it/g/${scheduled.token}`);
  });

  it('does not retry a permanent refusal (5xx)', async () => {
    smtp.emails.length = 0;
    smtp.rejectNext(1, 550);
    const scheduled = await scheduleGuideEmail();
    const row = await waitForStatus(scheduled.emailMessageId, 'failed');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/550/);
    // A retry would leave the job delayed or waiting; failed is final.
    const jobId = sendEmailJob.jobId({ emailMessageId: scheduled.emailMessageId });
    await waitFor(async () => (await worker.deps.queues.queue('email').getJobState(jobId)) === 'failed', {
      what: 'the email job to fail for good',
    });
    expect(smtp.emails).toHaveLength(0);
  });
});

/** A header field of a raw message, unfolded. */
const headerOf = (raw: string, name: string) => {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
};

describe('emails to a lead over a real SMTP server', () => {
  it.each(LEAD_EMAIL_KINDS)('%s carries the withdrawal link in its text and in List-Unsubscribe (RFC 8058)', async (kind) => {
    smtp.emails.length = 0;
    const address = `${kind}${Date.now()}@example.it`;
    const lead = await insertLead(worker.db, { email: address });
    const [row] = await worker.db('email_messages').insert({ lead_id: lead.leadId, kind }).returning('id');
    await worker.deps.queues.enqueue(sendEmailJob, { emailMessageId: row.id });
    await waitForStatus(row.id, 'delivered');
    const [email] = await smtp.waitForEmails(1);

    const link = `https://guida.example.it/revoca-marketing/${withdrawalLinkToken(TEST_LINK_TOKEN_SECRET, lead.leadId).token}`;
    expect(email!.to).toEqual([address]);
    expect(email!.text).toContain(`senza accedere:\n${link}`);
    expect(headerOf(email!.raw, 'List-Unsubscribe')).toBe(`<${link}>`);
    expect(headerOf(email!.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });
});

describe('one email job run twice or abandoned mid-send', () => {
  beforeEach(() => {
    smtp.emails.length = 0;
    smtp.respondAfter(0);
  });

  // The processor itself, on rows that are not enqueued, so the running worker leaves them alone.
  const sendEmail = () =>
    createSendEmail({
      db: worker.db,
      logger: worker.deps.logger,
      mailer: worker.deps.mailer,
      publicBaseUrl: worker.config.PUBLIC_BASE_URL,
      linkTokenSecret: worker.config.LINK_TOKEN_SECRET,
      confirmLinkTtlHours: worker.config.GDPR_CONFIRM_LINK_TTL_HOURS,
      exportLinkTtlDays: worker.config.GDPR_EXPORT_LINK_TTL_DAYS,
      retentionMonths: worker.config.RETENTION_MONTHS,
      claimTimeoutMs: claimTimeouts(worker.config).email,
    });
  const jobFor = (emailMessageId: number) =>
    new Job(worker.deps.queues.queue('email'), sendEmailJob.name, { emailMessageId }, { attempts: sendEmailJob.attempts });
  const emailRow = (id: number) => worker.db('email_messages').where({ id }).first();

  async function insertConfirmEmail() {
    const [request] = await worker.db('gdpr_data_requests')
      .insert({ email: `r${Date.now()}@example.it`, request_type: 'access' })
      .returning('id');
    const [row] = await worker.db('email_messages')
      .insert({ data_request_id: request.id, kind: 'gdpr-confirm' })
      .returning('id');
    return { dataRequestId: request.id as number, emailMessageId: row.id as number };
  }

  it('sends once when two runs of the same job overlap (a stalled job recovered mid-send)', async () => {
    smtp.respondAfter(300);
    const lead = await insertLead(worker.db, { email: `overlap${Date.now()}@example.it` });
    const [row] = await worker.db('email_messages').insert({ lead_id: lead.leadId, kind: 'guide-link' }).returning('id');
    const send = sendEmail();

    // The same job twice, as BullMQ hands it to a second worker when the first one's lock lapses.
    const outcomes = await Promise.all([send(jobFor(row.id)), send(jobFor(row.id))]);
    expect(outcomes.sort()).toEqual(['sent', 'skipped: already sending']);
    expect(smtp.emails).toHaveLength(1);
    expect(await emailRow(row.id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('mints one confirmation link when two runs overlap, so the link that went out works', async () => {
    smtp.respondAfter(300);
    const { dataRequestId, emailMessageId } = await insertConfirmEmail();
    const send = sendEmail();

    await Promise.all([send(jobFor(emailMessageId)), send(jobFor(emailMessageId))]);
    expect(smtp.emails).toHaveLength(1);
    const token = /\/gdpr\/conferma\/([\w-]{22})/.exec(smtp.emails[0]!.text)?.[1];
    const request = await worker.db('gdpr_data_requests').where({ id: dataRequestId }).first();
    expect(request.confirm_token_hash).toBe(sha256Hex(token!));
  });

  it('hands its claim back when the email cannot be composed, so the next run sends it', async () => {
    const { emailMessageId } = await insertConfirmEmail();
    const send = sendEmail();
    // Postgres refuses the statement that mints the confirmation link.
    await worker.db.raw(`
      CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'update refused for the test'; END $$;
      CREATE TRIGGER refuse_update BEFORE UPDATE ON gdpr_data_requests FOR EACH ROW EXECUTE FUNCTION refuse_update();
    `);
    try {
      await expect(send(jobFor(emailMessageId))).rejects.toThrow(/update refused for the test/);
    } finally {
      await worker.db.raw('DROP TRIGGER refuse_update ON gdpr_data_requests; DROP FUNCTION refuse_update()');
    }
    expect(await emailRow(emailMessageId)).toMatchObject({
      status: 'pending',
      attempts: 0,
      last_error: expect.stringMatching(/update refused for the test/),
    });

    expect(await send(jobFor(emailMessageId))).toBe('sent');
    expect(smtp.emails).toHaveLength(1);
  });

  it('takes over an email whose claim a stopped worker left, once older than the claim timeout', async () => {
    const address = `abandoned${Date.now()}@example.it`;
    const lead = await insertLead(worker.db, { email: address });
    const abandoned = (ageMs: number) =>
      worker.db('email_messages')
        .insert({
          lead_id: lead.leadId,
          kind: ageMs > 0 ? 'guide-link' : 'retention-notice',
          status: 'sending',
          attempts: 1,
          updated_at: worker.db.raw('now() - make_interval(secs => ?)', [Math.abs(ageMs) / 1000]),
        })
        .returning('id');
    const timeout = claimTimeouts(worker.config).email;
    const [fresh] = await abandoned(-(timeout - 60_000));
    const [stale] = await abandoned(timeout + 1000);

    expect(await sendEmail()(jobFor(fresh.id))).toBe('skipped: already sending');
    expect(await sendEmail()(jobFor(stale.id))).toBe('sent');
    const [email] = await smtp.waitForEmails(1);
    expect(email!.to).toEqual([address]);
    expect(await emailRow(stale.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await emailRow(fresh.id)).toMatchObject({ status: 'sending' });
  });
});
