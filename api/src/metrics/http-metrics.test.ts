import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText } from '@guida/testing/prometheus-text';
import { createTestApi, type TestApi } from '../testing/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

const scrape = async () => parsePrometheusText(await api.deps.metrics.registry.metrics());

describe('http_request_duration_seconds', () => {
  it('times each request under its route template, never its path, by status class', async () => {
    const token = 'personal-token-abcdefghijklmnop';
    await request(api.app).get('/api/site-settings').expect(200);
    await request(api.app).get(`/g/${token}`);
    await request(api.app).post('/api/ebook-request').send({ nome: 'x' }).expect(400);
    await request(api.app).get('/api/non-esiste/123').expect(404);
    await request(api.app).get('/trading-automatico');

    const text = await api.deps.metrics.registry.metrics();
    expect(text).not.toContain(token);
    expect(text).not.toContain('/api/non-esiste');
    const labels = (await scrape()).all('http_request_duration_seconds_count').map((sample) => `${sample.labels.method} ${sample.labels.route} ${sample.labels.status_class}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        'GET /api/site-settings 2xx',
        'POST /api/ebook-request 4xx',
        'GET (no route) 4xx',
        'GET (site page) 2xx',
      ]),
    );
    expect(labels.some((label) => label.startsWith('GET /g/:token '))).toBe(true);
  });

  it('keeps an attacker-chosen method out of the labels and counts 5xx answers per route', async () => {
    api.deps.metrics.requestFinished('BREW', '/api/ebook-request', 503, 0.2);
    const metrics = await scrape();
    expect(metrics.samples.some((sample) => sample.labels.method === 'BREW')).toBe(false);
    expect(metrics.value('http_server_errors_total', { method: 'OTHER', route: '/api/ebook-request' })).toBe(1);
  });
});
