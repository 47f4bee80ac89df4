import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEmailJob } from '@guida/shared/jobs/email';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestWorker, type TestWorker } from '../testing/test-worker';

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
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.emails).toHaveLength(0);
  });
});
