/**
 * No lead lost, and none left waiting for a sweep period: with its Redis down, the API
 * still stores and confirms leads; once a real redis-server is back (restarted empty, as
 * after a crash without persistence), the worker sweeps at once and every SMS and CRM
 * delivery happens. The periodic sweep runs once an hour here, and its grace (the default
 * 10 s) is longer than the outage, so only the sweep on reconnection can deliver them.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { startOwnRedisServer, type OwnRedisServer } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { postLead as postLeadTo } from '@guida/testing/post-lead';
import { startApi, startWorker, type RunningProcess } from '@guida/testing/processes';

const CRM_SECRET = testWebhookSecret('outage CRM');

const PREFIX = 'outage';
/** Far below the hour of the sweep period, generous for a loaded machine. */
const DELIVERY_TIMEOUT_MS = 20_000;

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
    startFakeCrm({ secret: CRM_SECRET }),
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
    REDIS_KEY_PREFIX: PREFIX,
    SESSION_SECRET: 'outage-test-session-secret-0123456789',
    ...twilio.env,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
    SWEEP_INTERVAL_MS: '3600000',
  };
  [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await Promise.all([twilio.close(), crm.close(), redis.stop()]);
  await database.drop();
});

let leadCount = 0;

async function postLead(telefono: string) {
  leadCount += 1;
  return postLeadTo(baseUrl, { nome: `Persona${leadCount}`, email: `persona${leadCount}@example.it`, telefono });
}

/** Resolves once no SMS job and no sweep waits or runs: nothing could still send. */
async function waitUntilQueuesAreIdle() {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const sms = new Queue('sms', { connection, prefix: PREFIX });
  const maintenance = new Queue('maintenance', { connection, prefix: PREFIX });
  try {
    await waitFor(
      async () => {
        const counts = await Promise.all([
          sms.getJobCounts('wait', 'active', 'delayed', 'prioritized'),
          // The hourly schedulers keep a delayed job each.
          maintenance.getJobCounts('wait', 'active', 'prioritized'),
        ]);
        return counts.every((byState) => Object.values(byState).every((count) => count === 0));
      },
      { what: 'the sms and maintenance queues to be idle', timeoutMs: DELIVERY_TIMEOUT_MS },
    );
  } finally {
    await Promise.all([sms.close(), maintenance.close()]);
    connection.disconnect();
  }
}

const smsTo = (phones: string[]) => twilio.messages.filter((m) => phones.includes(m.to));

describe('Redis outage', () => {
  it('stores and confirms leads while Redis is down, and delivers them as soon as it is back', async () => {
    const phones = ['+393477100001', '+393477100002', '+41797100003'];
    await redis.stop();

    const answers = await Promise.all(phones.map(postLead));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    // The visitor does not wait for the outage.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(3000);

    const stored = await database.db('ebook_requests').whereIn('telefono', phones).pluck('id');
    expect(stored).toHaveLength(3);
    const pending = await database.db('sms_messages').whereIn('lead_id', stored).pluck('status');
    expect(pending).toEqual(['pending', 'pending', 'pending']);
    expect(smsTo(phones)).toHaveLength(0);

    await redis.start();

    await waitFor(() => smsTo(phones).length >= 3, { what: '3 SMS', timeoutMs: DELIVERY_TIMEOUT_MS });
    expect(smsTo(phones).map((m) => m.to).sort()).toEqual([...phones].sort());
    const webhooks = await crm.waitForRequests(3, DELIVERY_TIMEOUT_MS);
    expect(webhooks.map((w) => JSON.parse(w.body).lead.telefono).sort()).toEqual([...phones].sort());
    await waitFor(async () => {
      const statuses = await database.db('sms_messages').whereIn('lead_id', stored).pluck('status');
      return statuses.every((status) => status === 'sent');
    });
    await waitFor(async () => {
      const statuses = await database.db('crm_deliveries').whereIn('lead_id', stored).pluck('status');
      return statuses.every((status) => status === 'delivered');
    });

    // Every sweep asked for on reconnection has run: still exactly one SMS per lead.
    await waitUntilQueuesAreIdle();
    expect(smsTo(phones)).toHaveLength(3);
  }, 90_000);

  it('answers while Redis hangs without closing the connection, and delivers once it answers again', async () => {
    const phones = ['+393477100004', '+393477100005'];
    const control = new Redis(redis.url);
    try {
      // Every client's commands wait, ours included: like a stopped process or a network
      // that drops packets, which no connection error reveals.
      await control.call('CLIENT', 'PAUSE', '5000', 'ALL');

      const answers = await Promise.all(phones.map(postLead));
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
      // Answered well before the pause ends: the visitor does not wait for Redis.
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(3000);

      expect(await control.ping()).toBe('PONG');
    } finally {
      control.disconnect();
    }

    await waitFor(() => smsTo(phones).length >= 2, { what: '2 SMS', timeoutMs: DELIVERY_TIMEOUT_MS });
    await waitUntilQueuesAreIdle();
    expect(smsTo(phones).map((m) => m.to).sort()).toEqual([...phones].sort());
  }, 60_000);
});
