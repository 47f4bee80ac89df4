/**
 * WEB_CONCURRENCY > 1: the bundled API runs that many processes on one port, replaces one
 * that dies, stops cleanly on SIGTERM, and refuses to start at all when it cannot listen.
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@guida/testing/free-port';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { waitFor } from '@guida/testing/wait-for';
import { processEnv, runBundled, startApi } from '@guida/testing/processes';

let database: TestDatabase;
const prefix = uniquePrefix('processes');

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await deleteRedisKeys(prefix);
  await database.drop();
});

const envFor = (port: number) => ({
  ...processEnv({ port, databaseUrl: database.url, redisKeyPrefix: prefix }),
  WEB_CONCURRENCY: '2',
  SHUTDOWN_GRACE_MS: '5000',
});

/** The processes the supervisor started (none once it has stopped them). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

const count = (text: string, line: string) => text.split(line).length - 1;

describe('several API processes on one port', () => {
  it('serves requests, replaces a process that dies and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const api = await startApi(envFor(port));
    try {
      const supervisor = api.child.pid!;
      await waitFor(() => count(api.output(), '"api listening"') === 2, { what: 'two api processes listening' });
      const [first, second] = childrenOf(supervisor);
      expect(first).toBeDefined();
      expect(second).toBeDefined();

      const lead = {
        nome: 'Marta',
        cognome: 'Ferri',
        email: 'marta.ferri@example.it',
        telefono: '+39 347 710 0001',
        gdprConsent: true,
        ebookType: 'general',
      };
      const response = await fetch(`http://127.0.0.1:${port}/api/ebook-request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(lead),
      });
      expect(response.status).toBe(201);
      expect(await database.db('ebook_requests').count({ n: '*' }).first()).toEqual({ n: 1 });

      process.kill(first!, 'SIGKILL');
      await waitFor(() => count(api.output(), '"api listening"') === 3, { what: 'a replacement process' });
      expect(api.output()).toContain('an api process stopped; starting another');
      const replaced = childrenOf(supervisor);
      expect(replaced).toHaveLength(2);
      expect(replaced).toContain(second);
      expect(replaced).not.toContain(first);
      // New connections are handed out in turn, so these reach both processes.
      for (let attempt = 0; attempt < 4; attempt += 1) {
        expect((await fetch(`http://127.0.0.1:${port}/readyz`, { headers: { connection: 'close' } })).status).toBe(200);
      }

      expect(await api.stop('SIGTERM')).toBe(0);
      expect(count(api.output(), '"api shutting down"')).toBe(2);
      expect(childrenOf(supervisor)).toEqual([]);
      await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
    } finally {
      await api.stop('SIGKILL');
    }
  });

  it('stops with an error instead of restarting processes that cannot listen', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const api = runBundled('api/dist/server.js', envFor(port));
    try {
      expect(await api.exited).toBe(1);
      expect(api.output()).toContain('an api process stopped before it could listen');
      expect(count(api.output(), '"api listening"')).toBe(0);
    } finally {
      await api.stop('SIGKILL');
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
