import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_TITLES, alertTexts } from '@guida/shared/alerts';
import { createDb } from '@guida/shared/server/db';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { insertLead } from '@guida/testing/lead-fixture';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { waitFor } from '@guida/testing/wait-for';
import { startWorkers } from '../start-workers';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { alertRuntime } from './alerts.queue';

/**
 * Alerts against the real Postgres, a real SMTP server and a local webhook receiver that
 * verifies every request with the `standardwebhooks` package. The evaluations run with
 * the test's clock: moving it is what minutes passing means to them.
 */
const SECRET = testWebhookSecret('alerts');
const MINUTE = 60_000;
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
const at = (ms: number) => new Date(T0.getTime() + ms);

let smtp: SmtpCapture;
let receiver: FakeCrm;
let worker: TestWorker;
let evaluate: ReturnType<typeof alertRuntime>['evaluate'];
let send: ReturnType<typeof alertRuntime>['send'];

beforeAll(async () => {
  [smtp, receiver] = await Promise.all([startSmtpCapture(), startFakeCrm({ secret: SECRET })]);
  worker = await createTestWorker(
    {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Guida Finanza <guida@example.it>',
      ALERT_EMAIL_TO: 'ops@example.it, reperibile@example.it',
      ALERT_WEBHOOK_URL: receiver.url,
      ALERT_WEBHOOK_SECRET: SECRET,
      CRM_WEBHOOK_URL: 'http://127.0.0.1:9/crm',
      CRM_WEBHOOK_SECRET: testWebhookSecret('crm'),
    },
    { start: false },
  );
  ({ evaluate, send } = alertRuntime(worker.deps));
});
afterAll(async () => {
  await worker?.close();
  await Promise.all([smtp?.close(), receiver?.close()]);
});
beforeEach(async () => {
  await worker.db.raw('TRUNCATE ebook_requests, alert_incidents, alert_conditions, sms_budget_counts RESTART IDENTITY CASCADE');
  smtp.emails.length = 0;
  receiver.requests.length = 0;
});

/** A lead created at `createdAt` whose SMS is in `status`, with the times given. */
async function smsLead(createdAt: Date, sms: { status: string; sent_at?: Date; failed_at?: Date }) {
  const lead = await insertLead(worker.db, { created_at: createdAt });
  await worker.db('sms_messages').where({ lead_id: lead.leadId }).update({ created_at: createdAt, ...sms });
  return lead;
}

/** A lead whose SMS went long ago: only its CRM delivery matters. */
async function crmLead() {
  const lead = await insertLead(worker.db);
  await worker.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'skipped' });
  return lead;
}

const incidents = () => worker.db('alert_incidents').orderBy('id');
const webhookBodies = () => receiver.requests.map((request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown> });

/** What one open or resolve announces: one email to the list, one verified webhook. */
async function expectAnnounced(event: 'opened' | 'resolved', kind: keyof typeof ALERT_TITLES, from = 0) {
  const emails = smtp.emails.slice(from);
  expect(emails).toHaveLength(1);
  expect(emails[0]!.to).toEqual(['ops@example.it', 'reperibile@example.it']);
  expect(emails[0]!.subject).toBe(
    event === 'opened' ? alertTexts.emailOpenedSubject(kind) : alertTexts.emailResolvedSubject(kind),
  );
  const webhooks = receiver.requests.slice(from);
  expect(webhooks).toHaveLength(1);
  expect(webhooks[0]!.verified).toBe(true);
  expect(webhooks[0]!.headers['webhook-id']).toMatch(new RegExp(`^alert-\\d+-${event}$`));
  const body = JSON.parse(webhooks[0]!.body) as { type: string; data: { kind: string; title: string } };
  expect(body.type).toBe(`alert.${event}`);
  expect(body.data).toMatchObject({ kind, title: ALERT_TITLES[kind] });
  return { email: emails[0]!, webhook: body };
}

/**
 * The life of one incident: open at `openAt` (with nothing before), no repeat at
 * `stillAt`, resolved at `clearAt` after `clear()`.
 */
async function expectOneIncident(
  kind: keyof typeof ALERT_TITLES,
  times: { openAt: Date; stillAt: Date; clearAt: Date },
  clear: () => Promise<unknown> = async () => undefined,
) {
  expect(await evaluate(times.openAt)).toEqual({ opened: [kind], resolved: [] });
  await send(times.openAt);
  const opened = await expectAnnounced('opened', kind);

  expect(await evaluate(times.stillAt)).toEqual({ opened: [], resolved: [] });
  expect(await send(times.stillAt)).toEqual({ sent: 0, failed: 0 });
  expect(smtp.emails).toHaveLength(1);

  await clear();
  expect(await evaluate(times.clearAt)).toEqual({ opened: [], resolved: [kind] });
  await send(times.clearAt);
  await expectAnnounced('resolved', kind, 1);
  const rows = await incidents();
  expect(rows.map((row) => [row.kind, row.opened_at, row.resolved_at])).toEqual([[kind, times.openAt, times.clearAt]]);
  return opened;
}

describe('alerts, evaluated with a moved clock', () => {
  it('SMS p95 over the threshold opens one incident and resolves once the slow SMS leave the window', async () => {
    // Ten SMS that left 100 s after their request, five minutes ago (threshold 90 s).
    for (let index = 0; index < 10; index += 1) {
      await smsLead(at(-5 * MINUTE), { status: 'sent', sent_at: at(-5 * MINUTE + 100_000) });
    }
    const { email } = await expectOneIncident('sms_p95', { openAt: T0, stillAt: at(MINUTE), clearAt: at(11 * MINUTE) });
    expect(email.text).toContain('il 95% degli SMS è partito entro 100 s dalla richiesta (soglia 90 s)');
    expect(email.text).toContain('SMS considerati: 10.');
    expect(email.text).toContain('/admin/dashboard');
  });

  it('does not alert on the p95 of fewer SMS than the minimum count', async () => {
    for (let index = 0; index < 9; index += 1) {
      await smsLead(at(-5 * MINUTE), { status: 'sent', sent_at: at(-5 * MINUTE + 300_000) });
    }
    expect(await evaluate(T0)).toEqual({ opened: [], resolved: [] });
  });

  it('an SMS failure rate over the threshold opens one incident and resolves when it falls', async () => {
    for (let index = 0; index < 8; index += 1) {
      await smsLead(at(-3 * MINUTE), { status: 'delivered', sent_at: at(-3 * MINUTE + 2000) });
    }
    await smsLead(at(-3 * MINUTE), { status: 'failed', failed_at: at(-3 * MINUTE + 5000) });
    await smsLead(at(-3 * MINUTE), { status: 'undelivered', sent_at: at(-3 * MINUTE + 2000), failed_at: at(-2 * MINUTE) });
    const { webhook } = await expectOneIncident('sms_failure_rate', { openAt: T0, stillAt: at(MINUTE), clearAt: at(2 * MINUTE) }, async () => {
      // Twenty good SMS later the rate is 2 in 30: 6.7 %.
      for (let index = 0; index < 20; index += 1) {
        await smsLead(at(MINUTE), { status: 'delivered', sent_at: at(MINUTE + 2000) });
      }
    });
    expect(webhook.data).toMatchObject({ details: { failed: 2, finished: 10, ratePercent: 20, thresholdPercent: 10 } });
  });

  it('the CRM failing every attempt opens an incident only after 15 minutes, and resolves at its next success', async () => {
    const lead = await crmLead();
    await worker.db('crm_deliveries')
      .where({ id: lead.crmDeliveryId })
      .update({ status: 'retrying', attempts: 1, response_status: 503, last_error: 'CRM answered HTTP 503', updated_at: T0 });
    expect(await evaluate(T0)).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(14 * MINUTE))).toEqual({ opened: [], resolved: [] });
    const { email } = await expectOneIncident(
      'crm_failing',
      { openAt: at(15 * MINUTE), stillAt: at(16 * MINUTE), clearAt: at(17 * MINUTE) },
      () =>
        worker.db('crm_deliveries')
          .where({ id: lead.crmDeliveryId })
          .update({ status: 'delivered', response_status: 200, updated_at: at(17 * MINUTE) }),
    );
    expect(email.text).toContain('Da almeno 15 minuti il CRM rifiuta o non risponde a ogni invio');
    expect(email.text).toContain('Ultima risposta: HTTP 503.');
  });

  it('a CRM failure followed by a success before the 15 minutes opens nothing', async () => {
    const first = await crmLead();
    const second = await crmLead();
    await worker.db('crm_deliveries').where({ id: first.crmDeliveryId }).update({ status: 'failed', response_status: 401, updated_at: T0 });
    expect(await evaluate(T0)).toEqual({ opened: [], resolved: [] });
    await worker.db('crm_deliveries').where({ id: second.crmDeliveryId }).update({ status: 'delivered', updated_at: at(10 * MINUTE) });
    expect(await evaluate(at(10 * MINUTE))).toEqual({ opened: [], resolved: [] });
    // Failing again: the 15 minutes start over.
    await worker.db('crm_deliveries').where({ id: first.crmDeliveryId }).update({ status: 'retrying', updated_at: at(11 * MINUTE) });
    expect(await evaluate(at(11 * MINUTE))).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(25 * MINUTE))).toEqual({ opened: [], resolved: [] });
    expect(await evaluate(at(26 * MINUTE))).toEqual({ opened: ['crm_failing'], resolved: [] });
  });

  it('an SMS queue that would break the 2-minute promise opens an incident; one drained fast does not', async () => {
    // Drained fast: 2 waiting for 40 s, 60 sent in the last minute.
    for (let index = 0; index < 60; index += 1) {
      await smsLead(at(-30_000), { status: 'sent', sent_at: at(-20_000) });
    }
    const waiting = [await smsLead(at(-40_000), { status: 'pending' }), await smsLead(at(-35_000), { status: 'retrying' })];
    expect(await evaluate(T0)).toEqual({ opened: [], resolved: [] });

    // Nothing sent for a minute: the queue does not move.
    const { email } = await expectOneIncident(
      'sms_queue_promise',
      { openAt: at(MINUTE), stillAt: at(MINUTE + 30_000), clearAt: at(2 * MINUTE) },
      () =>
        worker.db('sms_messages')
          .whereIn('lead_id', waiting.map((lead) => lead.leadId))
          .update({ status: 'sent', sent_at: at(2 * MINUTE - 1000) }),
    );
    expect(email.text).toContain('SMS in attesa: 2; il più vecchio attende da 100 s (promessa: 120 s).');
    expect(email.text).toContain("Nell'ultimo minuto non è partito nessun SMS.");
  });

  it('an SMS that has waited only a few seconds is not yet a broken promise', async () => {
    await smsLead(at(-5000), { status: 'pending' });
    expect(await evaluate(T0)).toEqual({ opened: [], resolved: [] });
  });

  it('SMS held by a budget open one incident, resolved once none is held', async () => {
    const held = await smsLead(at(-MINUTE), { status: 'held' });
    const { email } = await expectOneIncident('sms_budget', { openAt: T0, stillAt: at(MINUTE), clearAt: at(2 * MINUTE) }, () =>
      worker.db('sms_messages').where({ lead_id: held.leadId }).update({ status: 'skipped' }),
    );
    expect(email.text).toContain('SMS trattenuti dal budget: 1.');
  });

  it('several evaluators at once open one incident, announced once', async () => {
    await smsLead(at(-MINUTE), { status: 'held' });
    const dbs = Array.from({ length: 4 }, () => createDb(worker.config.DATABASE_URL, { applicationName: 'alerts-test', poolMax: 2 }));
    try {
      const evaluations = await Promise.all(dbs.map((db) => alertRuntime({ ...worker.deps, db }).evaluate(T0)));
      expect(evaluations.flatMap((evaluation) => evaluation?.opened ?? [])).toEqual(['sms_budget']);
      await Promise.all(dbs.map((db) => alertRuntime({ ...worker.deps, db }).send(T0)));
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
    }
    expect(await incidents()).toHaveLength(1);
    await expectAnnounced('opened', 'sms_budget');
  });

  it('retries failed notifications later, keeps the incident, and sends "resolved" only after "opened"', async () => {
    const held = await smsLead(at(-MINUTE), { status: 'held' });
    smtp.rejectNext(1, 451);
    receiver.failNext(1, 503);
    expect(await evaluate(T0)).toEqual({ opened: ['sms_budget'], resolved: [] });
    expect(await send(T0)).toEqual({ sent: 0, failed: 2 });
    expect(await incidents()).toHaveLength(1);
    const unsent = await worker.db('alert_notifications').whereNull('sent_at');
    expect(unsent.map((row) => [row.event, row.channel, row.attempts])).toEqual([
      ['opened', 'email', 1],
      ['opened', 'webhook', 1],
    ]);
    expect(unsent.every((row) => typeof row.last_error === 'string')).toBe(true);

    // Resolved while its opening has not gone out: the resolution waits for it.
    await worker.db('sms_messages').where({ lead_id: held.leadId }).update({ status: 'skipped' });
    expect(await evaluate(at(MINUTE))).toEqual({ opened: [], resolved: ['sms_budget'] });
    expect(await send(at(MINUTE))).toEqual({ sent: 0, failed: 0 });

    expect(await send(at(2 * MINUTE))).toEqual({ sent: 4, failed: 0 });
    expect(smtp.emails.map((email) => email.subject)).toEqual([
      alertTexts.emailOpenedSubject('sms_budget'),
      alertTexts.emailResolvedSubject('sms_budget'),
    ]);
    expect(webhookBodies().map((body) => body.type)).toEqual(['alert.opened', 'alert.opened', 'alert.resolved']);
    expect(receiver.requests.map((request) => request.answered)).toEqual([503, 200, 200]);
    expect(receiver.requests.every((request) => request.verified)).toBe(true);
  });
});

describe('alerts in the running worker', () => {
  it('the scheduled evaluation opens an incident and the notification goes out by itself', async () => {
    const running = await createTestWorker(
      { SMTP_URL: smtp.url, ALERT_EMAIL_TO: 'ops@example.it', ALERT_SMS_MIN_COUNT: '1' },
      { start: false },
    );
    // One SMS that left 100 s after its request, a minute ago: the p95 is over 90 s.
    const lead = await insertLead(running.db, { created_at: new Date(Date.now() - 160_000) });
    await running.db('sms_messages')
      .where({ lead_id: lead.leadId })
      .update({ status: 'sent', sent_at: new Date(Date.now() - 60_000) });
    const from = smtp.emails.length;
    const runtime = startWorkers(running.deps);
    try {
      await waitFor(() => smtp.emails.length > from, { what: 'the alert email' });
      expect(smtp.emails.slice(from).map((email) => email.subject)).toEqual([alertTexts.emailOpenedSubject('sms_p95')]);
      expect(await running.db('alert_incidents').whereNull('resolved_at').pluck('kind')).toEqual(['sms_p95']);
    } finally {
      await runtime.close(5000);
      await running.close();
    }
  });
});
