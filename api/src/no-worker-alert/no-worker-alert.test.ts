import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import { ALERT_TITLES, alertTexts } from '@guida/shared/alerts';
import { createDb } from '@guida/shared/server/db';
import { startWorkerHeartbeat } from '@guida/shared/server/worker-heartbeats';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startSmtpCapture, type SmtpCapture } from '@guida/testing/smtp-capture';
import { createTestApi, type TestApi } from '../testing/test-api';
import { createNoWorkerAlert } from './no-worker-alert';

/**
 * The no-worker alert on the real PostgreSQL, a real SMTP server and a webhook receiver
 * that verifies the signatures: no worker runs here, so whatever is announced, the API
 * sent itself. The checks run with the test's clock.
 */
const SECRET = testWebhookSecret('no-worker');
const MINUTE = 60_000;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123';
const T0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
const at = (ms: number) => new Date(T0.getTime() + ms);

let smtp: SmtpCapture;
let receiver: FakeCrm;
let api: TestApi;
let clock = T0;
const now = () => clock;

beforeAll(async () => {
  [smtp, receiver] = await Promise.all([startSmtpCapture(), startFakeCrm({ secret: SECRET })]);
  api = await createTestApi(
    {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Guida Finanza <guida@example.it>',
      ALERT_EMAIL_TO: 'ops@example.it',
      ALERT_WEBHOOK_URL: receiver.url,
      ALERT_WEBHOOK_SECRET: SECRET,
      WORKER_HEARTBEAT_ALERT_MINUTES: '3',
      METRICS_TOKEN,
    },
    { now },
  );
});
afterAll(async () => {
  await api?.close();
  await Promise.all([smtp?.close(), receiver?.close()]);
});
beforeEach(async () => {
  await api.db.raw('TRUNCATE worker_heartbeats, alert_incidents RESTART IDENTITY CASCADE');
  smtp.emails.length = 0;
  receiver.requests.length = 0;
  clock = T0;
});

/** A worker that wrote its last heartbeat at `lastSeen` and then died without a word. */
const crashedWorker = (lastSeen: Date) =>
  api.db('worker_heartbeats').insert({
    id: randomUUID(),
    host: 'worker-1',
    pid: 4242,
    started_at: new Date(lastSeen.getTime() - 60 * MINUTE),
    last_seen: lastSeen,
  });

function checker(db = api.db) {
  return createNoWorkerAlert({ config: api.config, db, logger: api.deps.logger, now });
}

function expectAnnounced(event: 'opened' | 'resolved', from: number) {
  const emails = smtp.emails.slice(from);
  expect(emails).toHaveLength(1);
  expect(emails[0]!.to).toEqual(['ops@example.it']);
  expect(emails[0]!.subject).toBe(
    event === 'opened' ? alertTexts.emailOpenedSubject('no_worker') : alertTexts.emailResolvedSubject('no_worker'),
  );
  const webhooks = receiver.requests.slice(from);
  expect(webhooks).toHaveLength(1);
  expect(webhooks[0]!.verified).toBe(true);
  const body = JSON.parse(webhooks[0]!.body) as { type: string; data: { kind: string; title: string } };
  expect(body).toMatchObject({ type: `alert.${event}`, data: { kind: 'no_worker', title: ALERT_TITLES.no_worker } });
  return emails[0]!;
}

describe('the no-worker alert, checked by the API', () => {
  it('opens one incident and sends it itself once no heartbeat is newer than the threshold, and only once', async () => {
    await crashedWorker(at(-3 * MINUTE));
    const alert = checker();
    try {
      // Exactly 3 minutes: not yet.
      expect(await alert.check()).toEqual({ evaluation: { opened: [], resolved: [] }, sent: { sent: 0, failed: 0 } });
      clock = at(MINUTE);
      expect(await alert.check()).toEqual({ evaluation: { opened: ['no_worker'], resolved: [] }, sent: { sent: 2, failed: 0 } });
      const email = expectAnnounced('opened', 0);
      expect(email.text).toContain('Ultimo segnale di un worker:');
      expect(email.text).toContain('soglia 3 minuti');

      clock = at(2 * MINUTE);
      expect(await alert.check()).toEqual({ evaluation: { opened: [], resolved: [] }, sent: { sent: 0, failed: 0 } });
      expect(smtp.emails).toHaveLength(1);
      expect(await api.db('alert_incidents').whereNull('resolved_at').pluck('kind')).toEqual(['no_worker']);
    } finally {
      await alert.stop();
    }
  });

  it('opens it once when several API processes check at the same moment', async () => {
    await crashedWorker(at(-10 * MINUTE));
    const pools = Array.from({ length: 4 }, () => createDb(api.config.DATABASE_URL, { applicationName: 'guida-test', poolMax: 2 }));
    const alerts = pools.map((db) => checker(db));
    try {
      const results = await Promise.all(alerts.map((alert) => alert.check()));
      expect(results.filter((result) => result.evaluation?.opened.length).length).toBe(1);
      expect(results.reduce((sum, result) => sum + result.sent.sent, 0)).toBe(2);
      expect(await api.db('alert_incidents').pluck('kind')).toEqual(['no_worker']);
      expectAnnounced('opened', 0);
    } finally {
      await Promise.all(alerts.map((alert) => alert.stop()));
      await Promise.all(pools.map((db) => db.destroy()));
    }
  });

  it('resolves it when a worker beats again, and announces that once', async () => {
    await crashedWorker(at(-5 * MINUTE));
    const alert = checker();
    try {
      await alert.check();
      expectAnnounced('opened', 0);

      clock = at(MINUTE);
      const heartbeat = startWorkerHeartbeat({ db: api.db, logger: api.deps.logger, now });
      await heartbeat.stop();
      clock = at(MINUTE + 30_000);
      expect(await alert.check()).toEqual({ evaluation: { opened: [], resolved: ['no_worker'] }, sent: { sent: 2, failed: 0 } });
      const email = expectAnnounced('resolved', 1);
      expect(email.text).toContain(alertTexts.emailResolvedIntro);

      clock = at(2 * MINUTE);
      expect(await alert.check()).toEqual({ evaluation: { opened: [], resolved: [] }, sent: { sent: 0, failed: 0 } });
      expect(smtp.emails).toHaveLength(2);
      const rows = await api.db('alert_incidents').select('kind', 'opened_at', 'resolved_at');
      expect(rows).toEqual([{ kind: 'no_worker', opened_at: T0, resolved_at: at(MINUTE + 30_000) }]);
    } finally {
      await alert.stop();
    }
  });

  it('waits the threshold from its own start when no worker ever ran', async () => {
    const alert = checker();
    try {
      clock = at(3 * MINUTE);
      expect((await alert.check()).evaluation).toEqual({ opened: [], resolved: [] });
      clock = at(3 * MINUTE + 1000);
      expect((await alert.check()).evaluation).toEqual({ opened: ['no_worker'], resolved: [] });
      expect(expectAnnounced('opened', 0).text).toContain('Nessun worker ha mai segnalato la propria attività');
    } finally {
      await alert.stop();
    }
  });

  it('answers the age of the last heartbeat on /metrics', async () => {
    const metrics = () => request(api.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect((await metrics()).text).toMatch(/^guida_worker_last_heartbeat_age_seconds \+Inf$/m);
    await crashedWorker(new Date(Date.now() - 90_000));
    const { text } = await metrics();
    const age = Number(/^guida_worker_last_heartbeat_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(150);
  });
});
