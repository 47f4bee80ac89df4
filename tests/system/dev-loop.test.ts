/**
 * `npm run dev` (smoke check): the API and the worker run from source under tsx watch,
 * the site from Vite's dev server with the hot-reload runtime, and the dev server passes
 * the API's paths to the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@guida/testing/free-port';
import { testRedisUrl } from '@guida/testing/services';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { startDevProcesses } from '../../scripts/lib/dev-processes.mjs';

let database: TestDatabase;
const prefix = uniquePrefix('dev');

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await deleteRedisKeys(prefix);
  await database.drop();
});

describe('npm run dev', () => {
  it('serves the site with hot reload in front of the API and runs the worker', async () => {
    const [sitePort, apiPort] = [await freePort(), await freePort()];
    let output = '';
    const dev = startDevProcesses({
      sitePort,
      apiPort,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        PUBLIC_BASE_URL: `http://localhost:${sitePort}`,
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_KEY_PREFIX: prefix,
        SESSION_SECRET: 'dev-loop-test-session-secret-0123456789',
        WORKER_METRICS_PORT: String(await freePort()),
      },
      write: (text) => (output += text),
    });
    try {
      const site = `http://127.0.0.1:${sitePort}`;
      const page = await waitFor(
        async () => {
          const response = await fetch(`${site}/`).catch(() => undefined);
          return response?.ok ? response.text() : undefined;
        },
        { what: `the dev server to answer:\n${output}`, timeoutMs: 60_000, intervalMs: 250 },
      );
      // Rendered from the sources with React Router's hot-reload runtime, not the build.
      expect(page).toContain('virtual:react-router/inject-hmr-runtime');
      expect(page).toContain('/app/root.tsx');

      const ready = await waitFor(
        async () => {
          const response = await fetch(`${site}/readyz`).catch(() => undefined);
          return response?.ok ? response.json() : undefined;
        },
        { what: 'the API behind the dev server', timeoutMs: 30_000, intervalMs: 250 },
      );
      expect(ready).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
      // An API path answers from the API through the dev server, with the API's message.
      const refused = await fetch(`${site}/api/ebook-request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://localhost:${sitePort}` },
        body: '{}',
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ message: 'Il nome deve contenere almeno 2 caratteri' });

      await waitFor(() => output.includes('worker: worker started'), { what: 'the worker to start', timeoutMs: 30_000 });
      expect(output).toContain('api: api listening');
    } finally {
      await dev.stop();
    }
  }, 150_000);
});
