import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from './start-workers';
import { createTestWorker, type TestWorker } from './testing/test-worker';

/** The heartbeat the API's no-worker alert reads (decision 058), on the real PostgreSQL. */
let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker({}, { start: false });
});
afterAll(async () => {
  await worker?.close();
});

describe('a worker process', () => {
  it('writes its heartbeat while it runs and marks it stopped when it closes', async () => {
    const runtime = startWorkers(worker.deps);
    let row: Record<string, unknown> | undefined;
    try {
      await expect
        .poll(async () => (row = await worker.db('worker_heartbeats').where({ id: runtime.heartbeat.id }).first()))
        .toBeTruthy();
      expect(row).toMatchObject({ pid: process.pid, stopped_at: null });
    } finally {
      await runtime.close(5000);
    }
    const stopped = await worker.db('worker_heartbeats').where({ id: runtime.heartbeat.id }).first();
    expect(stopped.stopped_at).toBeInstanceOf(Date);
    expect(stopped.last_seen).toEqual(stopped.stopped_at);
    expect(stopped.last_seen.getTime()).toBeGreaterThanOrEqual((row!.last_seen as Date).getTime());
  });
});
