import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type FakeGraph } from './fake-graph-server';

/** The fake Graph API refuses what Meta would: the checks the worker's tests rely on can fail. */
const PIXEL = '1234567890123';
const TOKEN = 'EAAGm0PX4ZCpsBAKZBfakeZBtokenZA1234567890';
const HASH = 'a'.repeat(64);
const now = () => Math.floor(Date.now() / 1000);
const event = (overrides: Record<string, unknown> = {}, userData: Record<string, unknown> = {}) => ({
  event_name: 'Lead',
  event_time: now(),
  event_id: 'lead-1',
  action_source: 'website',
  event_source_url: 'https://guida.example.it/',
  user_data: { em: [HASH], ph: [HASH], client_user_agent: 'Mozilla/5.0', ...userData },
  ...overrides,
});

let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph({ version: 'v26.0', pixelId: PIXEL, accessToken: TOKEN });
});
afterAll(async () => {
  await graph.close();
});

async function post(body: unknown, path = `/v26.0/${PIXEL}/events`) {
  const response = await fetch(`${graph.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the fake Graph API', () => {
  it('takes a well-formed event and answers as Meta does', async () => {
    const answer = await post({ data: [event()], access_token: TOKEN });
    expect(answer).toEqual({ status: 200, body: { events_received: 1, messages: [], fbtrace_id: expect.stringMatching(/^A/) } });
  });

  it('refuses a wrong token with Graph error 190, and a wrong version, pixel or payload with 100', async () => {
    expect(await post({ data: [event()], access_token: 'EAAwrong' })).toMatchObject({ status: 400, body: { error: { code: 190 } } });
    const refused: [unknown, string?][] = [
      [{ data: [event()], access_token: TOKEN }, `/v25.0/${PIXEL}/events`],
      [{ data: [event()], access_token: TOKEN }, '/v26.0/999/events'],
      [{ data: [], access_token: TOKEN }],
      [{ data: [event({}, { em: ['mario.rossi@example.it'] })], access_token: TOKEN }],
      [{ data: [event({}, { ph: ['+393471234567'] })], access_token: TOKEN }],
      [{ data: [event({}, { client_user_agent: undefined })], access_token: TOKEN }],
      [{ data: [event({}, { fbc: 'IwAR0-bare' })], access_token: TOKEN }],
      [{ data: [event({}, { client_ip_address: '127.0.0' })], access_token: TOKEN }],
      [{ data: [event({ event_time: now() - 8 * 24 * 3600 })], access_token: TOKEN }],
      [{ data: [event({ action_source: 'web' })], access_token: TOKEN }],
      [{ data: [event({ event_source_url: undefined })], access_token: TOKEN }],
    ];
    for (const [body, path] of refused) {
      const answer = await post(body, path);
      expect(answer.status, JSON.stringify([body, path])).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 100, type: 'OAuthException' } });
    }
    expect(graph.requests.filter((request) => request.problems.length > 0)).toHaveLength(refused.length + 1);
  });

  it('fails on demand: a transient Graph error for a 5xx, a final one for a 4xx', async () => {
    graph.failNext(1, 503);
    graph.failNext(1, 400);
    expect(await post({ data: [event()], access_token: TOKEN })).toMatchObject({ status: 503, body: { error: { code: 2, is_transient: true } } });
    expect(await post({ data: [event()], access_token: TOKEN })).toMatchObject({ status: 400, body: { error: { code: 100, is_transient: false } } });
    expect((await post({ data: [event()], access_token: TOKEN })).status).toBe(200);
  });
});
