/**
 * No lead lost: with its Redis down, the API still stores and confirms leads; once a
 * real redis-server is back (restarted empty, as after a crash without persistence), the
 * worker's sweeper enqueues the pending deliveries and every SMS and CRM delivery happens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCrm, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { startOwnRedisServer, type OwnRedisServer } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { startApi, startWorker, type RunningProcess } from '@guida/testing/processes';

let database: TestDatabase;
let redis: OwnRedisServer;
let twilio: FakeTwilio;
let crm: FakeCrm;
let api: RunningProcess;
let worker: RunningProcess;
let baseUrl: string;

beforeAll(async () => {
  [database, redis, twilio, crm] = await Promise.all([
    createTestDatabase(),
    startOwnRedisServer(),
    startFakeTwilio(),
    startFakeCrm(),
  ]);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    SESSION_SECRET: 'outage-test-session-secret-0123456789',
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: 'GuidaFin',
    TWILIO_API_BASE_URL: twilio.url,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: 'outage-test-crm-secret',
    SWEEP_INTERVAL_MS: '500',
    SWEEP_GRACE_MS: '0',
  };
  [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await Promise.all([twilio.close(), crm.close(), redis.stop()]);
  await database.drop();
});

const phones = ['+393477100001', '+393477100002', '+41797100003'];

describe('Redis outage', () => {
  it('loses no lead: stored and confirmed while Redis is down, delivered once it is back', async () => {
    await redis.stop();

    const answers = await Promise.all(
      phones.map(async (telefono, i) => {
        const started = Date.now();
        const response = await fetch(`${baseUrl}/api/ebook-request`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            nome: `Persona${i}`,
            cognome: 'Prova',
            email: `persona${i}@example.it`,
            telefono,
            gdprConsent: true,
          }),
        });
        return { status: response.status, ms: Date.now() - started };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    // The visitor does not wait for the outage.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(3000);

    const stored = await database.db('ebook_requests').whereIn('telefono', phones).pluck('id');
    expect(stored).toHaveLength(3);
    const pending = await database.db('sms_messages').whereIn('lead_id', stored).pluck('status');
    expect(pending).toEqual(['pending', 'pending', 'pending']);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(twilio.messages).toHaveLength(0);

    await redis.start();

    const messages = await twilio.waitForMessages(3, 30_000);
    expect(messages.map((m) => m.to).sort()).toEqual([...phones].sort());
    const webhooks = await crm.waitForRequests(3, 30_000);
    expect(webhooks.map((w) => JSON.parse(w.body).lead.telefono).sort()).toEqual([...phones].sort());
    await waitFor(async () => {
      const statuses = await database.db('sms_messages').whereIn('lead_id', stored).pluck('status');
      return statuses.every((status) => status === 'sent');
    });
    const crmStatuses = await database.db('crm_deliveries').whereIn('lead_id', stored).pluck('status');
    expect(crmStatuses).toEqual(['delivered', 'delivered', 'delivered']);

    // Sweeps keep running: still exactly one SMS per lead.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(twilio.messages).toHaveLength(3);
  }, 90_000);
});
