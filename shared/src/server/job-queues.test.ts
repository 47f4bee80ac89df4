/**
 * The sweeps that processes ask for after a reconnection or a failed add
 * (`JobQueues.requestSweep`, decision 023), on real Redis: however many processes ask,
 * one sweep waits at most; a request made while a sweep runs gets one more sweep after
 * it; a process whose add failed asks once Redis answers again.
 */
import { Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@guida/testing/services';
import { deleteRedisKeys, startOwnRedisServer, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { QUEUE_NAMES } from '../jobs/definition';
import { sweepAfterReconnectJob } from '../jobs/maintenance';
import { sendGuideSmsJob } from '../jobs/sms';
import { createJobQueues, type JobQueues } from './job-queues';
import { createLogger } from './logger';
import { createRedis, reconnectDelay, type Redis } from './redis';

const logger = createLogger({ service: 'sweep-requests-test', level: 'silent' });
const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function connect(url: string, role: 'request' | 'worker') {
  const connection = createRedis(url, role);
  // The outage test stops its server: connection errors are expected there.
  connection.on('error', () => undefined);
  cleanups.push(() => connection.disconnect());
  return connection;
}

async function producer(connection: Redis, prefix: string, options: { failFast?: boolean } = {}) {
  await waitFor(() => connection.status === 'ready', { what: 'Redis to be ready' });
  const queues = createJobQueues({ connection, prefix, logger, addTimeoutMs: 300, ...options });
  cleanups.push(() => queues.close());
  // A queue whose first commands fail (Redis stopped meanwhile) stays broken in BullMQ.
  await Promise.all(QUEUE_NAMES.map((name) => queues.queue(name).waitUntilReady()));
  return queues;
}

const waitingSweeps = async (queues: JobQueues) =>
  (await queues.queue('maintenance').getJobs(['wait', 'prioritized', 'delayed'])).filter(
    (job) => job.name === sweepAfterReconnectJob.name,
  ).length;

describe('sweep requests', () => {
  it('from several processes while a sweep waits make one sweep', async () => {
    const prefix = uniquePrefix('sweeps');
    cleanups.push(() => deleteRedisKeys(prefix));
    const [api, worker] = await Promise.all([
      producer(connect(testRedisUrl(), 'request'), prefix),
      producer(connect(testRedisUrl(), 'worker'), prefix),
    ]);

    await Promise.all([api.requestSweep(), worker.requestSweep(), api.requestSweep(), worker.requestSweep()]);

    expect(await waitingSweeps(api)).toBe(1);
  });

  it('made while a sweep runs get exactly one sweep after it', async () => {
    const prefix = uniquePrefix('sweeps');
    cleanups.push(() => deleteRedisKeys(prefix));
    const queues = await producer(connect(testRedisUrl(), 'worker'), prefix);
    let releaseFirst = () => {};
    const firstMayEnd = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let runs = 0;
    const sweeper = new Worker(
      'maintenance',
      async () => {
        runs += 1;
        if (runs === 1) await firstMayEnd;
      },
      { connection: connect(testRedisUrl(), 'worker'), prefix },
    );
    cleanups.push(() => sweeper.close());

    await queues.requestSweep();
    await waitFor(() => runs === 1, { what: 'the first sweep to start' });
    await Promise.all([queues.requestSweep(), queues.requestSweep(), queues.requestSweep()]);
    releaseFirst();

    const maintenance = queues.queue('maintenance');
    await waitFor(async () => {
      const { completed, ...unfinished } = await maintenance.getJobCounts(
        'completed',
        'wait',
        'active',
        'delayed',
        'prioritized',
      );
      return completed === 2 && Object.values(unfinished).every((count) => count === 0);
    }, { what: 'two sweeps to complete and none to be left' });
    expect(runs).toBe(2);
  });

  it('follow an add that failed, once Redis answers again', async () => {
    const server = await startOwnRedisServer();
    cleanups.push(() => server.stop());
    const connection = connect(server.url, 'request');
    const queues = await producer(connection, 'sweeps', { failFast: true });

    await server.stop();
    await waitFor(() => connection.status !== 'ready', { what: 'the connection to notice' });
    await expect(queues.enqueue(sendGuideSmsJob, { leadId: 1 })).rejects.toThrow(/Redis/);

    await server.start();
    await waitFor(() => connection.status === 'ready', { what: 'the connection to come back' });
    await waitFor(async () => (await waitingSweeps(queues)) === 1, { what: 'a sweep to be asked for' });
  });
});

describe('reconnection attempts', () => {
  it('back off from 50 ms to at most a second apart, with up to 100 ms of jitter', () => {
    expect(reconnectDelay(1, 0)).toBe(50);
    expect(reconnectDelay(3, 0)).toBe(200);
    expect(reconnectDelay(5, 0)).toBe(800);
    expect(reconnectDelay(6, 0)).toBe(1000);
    expect(reconnectDelay(40, 0.999)).toBe(1099);
  });
});
