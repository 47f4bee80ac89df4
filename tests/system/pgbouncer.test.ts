/**
 * The product behind a connection pooler in transaction mode, as managed PostgreSQL
 * offers it (Supabase, Neon, DigitalOcean, Heroku): a real PgBouncer refusing unknown
 * start-up parameters, five server connections shared by every client. The API and the
 * worker connect through it, migrations go direct (DATABASE_DIRECT_URL); a burst of leads
 * is stored and texted, each once. The statement timeout still holds behind the pooler.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@guida/shared/server/db';
import { startFakeTwilio, type FakeTwilio } from '@guida/testing/fake-twilio-server';
import { freePort } from '@guida/testing/free-port';
import { startPgBouncer, type PgBouncer } from '@guida/testing/pgbouncer';
import { postLead } from '@guida/testing/post-lead';
import { processEnv, runBundled, startApi, startWorker, type RunningProcess } from '@guida/testing/processes';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';

const LEADS = 60;
const prefix = uniquePrefix('pgbouncer');

let database: TestDatabase;
let bouncer: PgBouncer;
let twilio: FakeTwilio;
let env: Record<string, string>;
const processes: RunningProcess[] = [];

beforeAll(async () => {
  [database, twilio] = await Promise.all([createTestDatabase(), startFakeTwilio()]);
  bouncer = await startPgBouncer(database.url);
  const port = await freePort();
  env = {
    ...processEnv({ port, databaseUrl: bouncer.url, redisKeyPrefix: prefix }),
    DATABASE_DIRECT_URL: database.url,
    DATABASE_POOL_MAX: '10',
    DATABASE_POOL_MODE: 'transaction',
    // One test address sends every lead.
    LEAD_RATE_LIMIT_PER_IP: '1000',
    ...twilio.env,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((process) => process.stop()));
  await twilio?.close();
  await bouncer?.stop();
  await deleteRedisKeys(prefix);
  await database?.drop();
});

describe('behind PgBouncer in transaction mode', () => {
  it('refuses a statement timeout sent as a start-up parameter (what the product used to send)', async () => {
    const client = new pg.Client({ connectionString: bouncer.url, statement_timeout: 15_000 });
    await expect(client.connect().then(() => client.query('SELECT 1'))).rejects.toThrow(/unsupported startup parameter/i);
    await client.end().catch(() => undefined);
  });

  it('runs the migrations on the direct connection, the API and the worker through the pooler', async () => {
    const migrate = runBundled('api/dist/migrate.js', { ...env, DATABASE_URL: bouncer.url });
    expect(await migrate.exited, migrate.output()).toBe(0);
    expect(migrate.output()).toContain('already up to date');

    const [api, worker] = await Promise.all([startApi(env), startWorker(env)]);
    processes.push(api, worker);
    const baseUrl = env.PUBLIC_BASE_URL!;
    const phoneOf = (index: number) => `+39347${String(8_300_000 + index)}`;
    const answers = await Promise.all(
      Array.from({ length: LEADS }, (_, index) =>
        postLead(baseUrl, { nome: `Persona${index}`, email: `persona${index}@example.it`, telefono: phoneOf(index) }),
      ),
    );
    expect(answers.map((answer) => answer.status), api.output().slice(-4000)).toEqual(Array(LEADS).fill(201));

    const messages = await twilio.waitForMessages(LEADS, 60_000).catch(async (error: unknown) => {
      const statuses = await database.db('sms_messages').select('status').count({ n: '*' }).groupBy('status');
      throw new Error(`${(error as Error).message}; SMS by status ${JSON.stringify(statuses)}\n${worker.output().slice(-3000)}`);
    });
    const perPhone = new Map<string, number>();
    for (const message of messages) perPhone.set(message.to, (perPhone.get(message.to) ?? 0) + 1);
    expect([...perPhone.keys()].sort()).toEqual(Array.from({ length: LEADS }, (_, index) => phoneOf(index)).sort());
    expect([...perPhone.values()].every((count) => count === 1)).toBe(true);
    expect(Number((await database.db('ebook_requests').count({ n: '*' }).first())?.n)).toBe(LEADS);
    expect(api.output()).not.toMatch(/unsupported startup parameter/i);
    expect(worker.output()).not.toMatch(/unsupported startup parameter/i);
  }, 120_000);

  it('still stops a statement that runs too long', async () => {
    const db = createDb(bouncer.url, { applicationName: 'pgbouncer-test', poolMax: 1, statementTimeoutMs: 300 });
    try {
      await expect(db.raw('SELECT pg_sleep(3)')).rejects.toThrow(/statement timeout|Query read timeout/i);
    } finally {
      await db.destroy();
    }
  });
});
