import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@guida/testing/free-port';
import { createTestApi, type TestApi } from '../testing/test-api';

describe('health', () => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('is live and ready when Postgres and Redis answer', async () => {
    api = await createTestApi();
    expect((await request(api.app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(api.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: 'ok', redis: 'ok' });
  });

  it('is not ready without Postgres', async () => {
    api = await createTestApi({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
    const ready = await request(api.app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toBe('unavailable');
  });

  it('sends the security headers with a strict CSP', async () => {
    api = await createTestApi();
    const response = await request(api.app).get('/healthz');
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-powered-by']).toBeUndefined();
    // HSTS only in production (https).
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers unknown pages with the 404 page', async () => {
    api = await createTestApi();
    const response = await request(api.app).get('/non-esiste');
    expect(response.status).toBe(404);
    expect(response.text).toContain('<title>Page Not Found</title>');
    expect(response.text).toContain('La pagina che cerchi non esiste');
  });

  it('answers unknown API routes with a JSON 404 in Italian', async () => {
    api = await createTestApi();
    const response = await request(api.app).get('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Risorsa non trovata.' });
  });
});
