import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@guida/testing/free-port';
import { createTestWorker, type TestWorker } from '../testing/test-worker';
import { startWorkerHttpServer } from './worker-http-server';

let worker: TestWorker;
beforeAll(async () => {
  worker = await createTestWorker({}, { start: false });
});
afterAll(async () => {
  await worker.close();
});

/** The address the health and metrics server listens on, with `host` configured (or not). */
async function listeningOn(host?: string) {
  const config = { ...worker.config, WORKER_METRICS_PORT: await freePort(), ...(host ? { WORKER_METRICS_HOST: host } : {}) };
  const server = await startWorkerHttpServer({ ...worker.deps, config });
  const { address } = server.address() as AddressInfo;
  const health = await fetch(`http://127.0.0.1:${config.WORKER_METRICS_PORT}/health`);
  await new Promise((resolve) => server.close(resolve));
  return { address, health: health.status };
}

describe("the worker's health and metrics server", () => {
  it('listens on this machine only by default, and where WORKER_METRICS_HOST says', async () => {
    // It answers on this machine either way (200, or 503 naming a dependency not yet reached).
    expect(await listeningOn()).toEqual({ address: '127.0.0.1', health: expect.toBeOneOf([200, 503]) });
    expect(await listeningOn('0.0.0.0')).toEqual({ address: '0.0.0.0', health: expect.toBeOneOf([200, 503]) });
  });
});
