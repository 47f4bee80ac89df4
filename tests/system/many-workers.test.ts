/**
 * Many workers on one Redis and PostgreSQL, as ops run them: two API processes, three
 * worker processes, a burst of leads, and one worker SIGKILLed while its Twilio and CRM
 * calls are in flight. Every lead gets exactly one SMS (the claim it left is taken over
 * after the claim timeout, and Twilio's Messages list is asked first: Twilio may have
 * taken the SMS the killed worker never recorded) and exactly one CRM delivery (a post
 * repeated by a takeover carries the same delivery id), within the 2-minute promise; the
 * killed worker's jobs are finished by the others. Status callbacks are off here, so the
 * Messages list is what prevents a second SMS (the callback path has its own test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCrm, testWebhookSecret, type FakeCrm } from '@guida/testing/fake-crm-server';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { postLead as postLeadTo } from '@guida/testing/post-lead';
import { startApi, startWorker, type RunningProcess } from '@guida/testing/processes';
import { testRedisUrl } from '@guida/testing/services';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';

const CRM_SECRET = testWebhookSecret('many workers CRM');

const LEADS = 40;
/** Twilio and the CRM hold each answer this long while the first worker is alive. */
const SLOW_ANSWER_MS = 4000;
const PROMISE_MS = 120_000;

let database: TestDatabase;
let twilio: FakeTwilio;
let crm: FakeCrm;
let api: RunningProcess;
const workers: RunningProcess[] = [];
let env: Record<string, string>;
let baseUrl: string;
const prefix = uniquePrefix('many-workers');

beforeAll(async () => {
  [database, twilio, crm] = await Promise.all([createTestDatabase(), startFakeTwilio(), startFakeCrm({ secret: CRM_SECRET })]);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // The defaults of .env.example (claim timeouts, stall checks, sweep period, SMS rate),
  // with Twilio and the CRM pointed at the local servers.
  env = {
    LOG_LEVEL: 'info',
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: prefix,
    SESSION_SECRET: 'many-workers-test-session-secret-0123',
    ...twilio.env,
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: CRM_SECRET,
  };
  api = await startApi({ ...env, WEB_CONCURRENCY: '2' });
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.stop(), ...workers.map((worker) => worker.stop())]);
  await Promise.all([twilio.close(), crm.close()]);
  await deleteRedisKeys(prefix);
  await database.drop();
});

const phoneOf = (index: number) => `+39347${String(8_100_000 + index)}`;

const postLead = (index: number) =>
  postLeadTo(baseUrl, { nome: `Persona${index}`, email: `persona${index}@example.it`, telefono: phoneOf(index) });

const countWhere = async (table: string, status: string) =>
  Number((await database.db(table).where({ status }).count({ n: '*' }).first())?.n ?? 0);

describe('three workers, one killed mid-send', () => {
  it('sends every SMS once and every CRM delivery once, within the promise, and the others finish its jobs', async () => {
    twilio.respondAfter(SLOW_ANSWER_MS);
    crm.respondAfter(SLOW_ANSWER_MS);
    // The first worker alone, so every claim taken before the kill is its own.
    const first = await startWorker(env);
    workers.push(first);

    const answers = await Promise.all(Array.from({ length: LEADS }, (_, index) => postLead(index)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(LEADS).fill(201));

    await waitFor(async () => (await countWhere('sms_messages', 'sending')) >= 3 && (await countWhere('crm_deliveries', 'sending')) >= 3, {
      what: 'the first worker to be calling Twilio and the CRM',
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const claimsLeft = await database.db('sms_messages').where({ status: 'sending' }).pluck('lead_id');
    expect(claimsLeft.length).toBeGreaterThanOrEqual(3);
    twilio.respondAfter(0);
    crm.respondAfter(0);
    workers.push(await startWorker(env), await startWorker(env));

    // Every SMS handed over: by the two others, or found at Twilio after the killed one.
    await waitFor(
      async () => Number((await database.db('sms_messages').whereIn('status', ['sent', 'delivered']).count({ n: '*' }).first())?.n) === LEADS,
      { what: `${LEADS} SMS sent`, timeoutMs: PROMISE_MS + 30_000, intervalMs: 500 },
    );
    await waitFor(async () => (await countWhere('crm_deliveries', 'delivered')) === LEADS, {
      what: `${LEADS} CRM deliveries`,
      timeoutMs: 90_000,
      intervalMs: 500,
    });

    // Exactly one SMS per phone, each within 2 minutes of its 201.
    const perPhone = new Map<string, number[]>();
    for (const message of twilio.messages) perPhone.set(message.to, [...(perPhone.get(message.to) ?? []), message.receivedAt]);
    expect(perPhone.size).toBe(LEADS);
    expect([...perPhone.values()].filter((times) => times.length > 1)).toEqual([]);
    const slowest = Math.max(...answers.map((answer, index) => perPhone.get(phoneOf(index))![0]! - answer.answeredAt));
    expect(slowest).toBeLessThan(PROMISE_MS);

    // One CRM delivery per lead, counted by its delivery id (a takeover re-posts the same id).
    const rows = await database.db('crm_deliveries').whereIn('lead_id', answers.map((answer) => answer.body.id));
    const deliveryIds = new Set(crm.requests.map((request) => request.deliveryId));
    expect(deliveryIds).toEqual(new Set(rows.map((row) => row.id)));

    // The killed worker's claims were taken over by the others, Twilio asked first.
    const survivors = workers.slice(1).map((worker) => worker.output()).join('\n');
    const takenOver = (survivors.match(/SMS of a stopped worker (found|not found) at the provider/g) ?? []).length;
    expect(takenOver).toBeGreaterThanOrEqual(claimsLeft.length);
    expect(await countWhere('sms_messages', 'sending')).toBe(0);
    expect(await countWhere('crm_deliveries', 'sending')).toBe(0);

    // Started again, it finds nothing left to do.
    workers[0] = await startWorker(env);
    expect(twilio.messages).toHaveLength(LEADS);
  }, 240_000);
});
