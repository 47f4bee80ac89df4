import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gdprMessages } from '@guida/shared/gdpr-messages';
import { challengeMessages } from '@guida/shared/messages';
import { freePort } from '@guida/testing/free-port';
import { createTestApi, validLead, TEST_SESSION_SECRET, type TestApi } from '../testing/test-api';
import { createProofOfWork } from './proof-of-work';

/** Few PBKDF2 iterations: the tests prove the rules, not the cost of solving. */
const CHEAP = { CHALLENGE_COST: '10' };
const CLIENT = '198.51.100.7';

const postLead = (api: TestApi, body: Record<string, unknown>, ip = CLIENT) =>
  request(api.app)
    .post('/api/ebook-request')
    .set('X-Forwarded-For', ip)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));

const postGdpr = (api: TestApi, body: Record<string, unknown>, ip = CLIENT) =>
  request(api.app)
    .post('/api/gdpr/requests')
    .set('X-Forwarded-For', ip)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));

const status = async (api: TestApi, ip = CLIENT) =>
  (await request(api.app).get('/api/challenge/status').set('X-Forwarded-For', ip)).body as { required: boolean };

/** What the widget does: fetch a challenge, solve it, send base64 of `{ challenge, solution }`. */
async function solvedPayload(api: TestApi) {
  const challenge = (await request(api.app).get('/api/challenge').expect(200)).body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const required = { message: challengeMessages.required, challengeRequired: true };
const invalid = { message: challengeMessages.invalid, challengeRequired: true };

describe('GET /api/challenge', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'always' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('issues a signed PBKDF2 challenge that expires within 10 minutes and is never cached', async () => {
    const response = await request(api.app).get('/api/challenge');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { parameters, signature } = response.body as Challenge;
    expect(parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 5000, keyPrefix: '00', keyLength: 32 });
    expect(parameters.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    const lifetime = parameters.expiresAt! - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(590);
    expect(lifetime).toBeLessThanOrEqual(600);
    const next = (await request(api.app).get('/api/challenge')).body as Challenge;
    expect(next.parameters.nonce).not.toBe(parameters.nonce);
  });
});

describe('CHALLENGE_MODE=always', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'always', ...CHEAP });
  });
  afterAll(async () => {
    await api.close();
  });

  it('refuses a lead without a solution with 428, and the status says so', async () => {
    expect(await status(api)).toEqual({ required: true });
    const response = await postLead(api, validLead());
    expect(response.status).toBe(428);
    expect(response.body).toEqual(required);
    expect(await api.db('ebook_requests').count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('stores a lead with a valid solution once, and refuses the same solution again', async () => {
    const altcha = await solvedPayload(api);
    const lead = validLead({ email: 'risolto@example.it' });
    const accepted = await postLead(api, { ...lead, altcha });
    expect(accepted.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: accepted.body.id }).first()).toMatchObject({
      email: 'risolto@example.it',
    });
    // Remembered as used until the challenge expires, not longer.
    const { nonce } = (JSON.parse(Buffer.from(altcha, 'base64').toString()) as { challenge: Challenge }).challenge.parameters;
    const ttl = await api.deps.redis.ttl(`${api.prefix}:challenge:used:${nonce}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600);

    const replayed = await postLead(api, { ...validLead(), altcha });
    expect(replayed.status).toBe(403);
    expect(replayed.body).toEqual(invalid);
    // Also from another client, and on the other form.
    expect((await postGdpr(api, { email: 'replay@example.it', requestType: 'access', altcha }, '203.0.113.9')).status).toBe(403);
  });

  it('refuses one solution sent twice at the same time but once', async () => {
    const altcha = await solvedPayload(api);
    const answers = await Promise.all([postLead(api, { ...validLead(), altcha }), postLead(api, { ...validLead(), altcha })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 403]);
  });

  it('refuses forged, tampered and malformed solutions with 403', async () => {
    const altcha = await solvedPayload(api);
    const { challenge, solution } = JSON.parse(Buffer.from(altcha, 'base64').toString()) as {
      challenge: Challenge;
      solution: { counter: number; derivedKey: string };
    };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    const wrongKey = { ...solution, derivedKey: `ff${solution.derivedKey.slice(2)}` };
    const easier = { ...challenge, parameters: { ...challenge.parameters, cost: 1 } };
    for (const forged of [
      encode({ challenge, solution: wrongKey }),
      encode({ challenge, solution: { ...solution, counter: solution.counter + 1 } }),
      encode({ challenge: easier, solution }),
      encode({ challenge: { parameters: challenge.parameters }, solution }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, nonce: 'zz' } }, solution }),
      encode({ challenge: 'x', solution }),
      'not base64 at all: \u00e8',
      'A'.repeat(10_000),
      42,
      { challenge, solution },
    ]) {
      const response = await postLead(api, { ...validLead(), altcha: forged });
      expect(response.status, JSON.stringify(forged).slice(0, 80)).toBe(403);
      expect(response.body).toEqual(invalid);
    }
    // The genuine one still works: the forgeries did not use it up.
    expect((await postLead(api, { ...validLead(), altcha })).status).toBe(201);
  });

  it('asks the GDPR form too, and accepts its request with a solution', async () => {
    const missing = await postGdpr(api, { email: 'anna@example.it', requestType: 'access' });
    expect(missing.status).toBe(428);
    expect(missing.body).toEqual(required);
    const accepted = await postGdpr(api, { email: 'anna@example.it', requestType: 'access', altcha: await solvedPayload(api) });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ message: gdprMessages.requestReceived });
  });

  it('lets a plain form post (no JavaScript) through to the normal limits', async () => {
    const lead = validLead({ email: 'senza-js@example.it' });
    const response = await request(api.app)
      .post('/api/ebook-request')
      .set('X-Forwarded-For', CLIENT)
      .type('form')
      .send({ ...lead, gdprConsent: 'on' });
    expect(response.status).toBe(303);
    expect(await api.db('ebook_requests').where({ email: 'senza-js@example.it' }).first()).toBeDefined();
  });
});

describe('CHALLENGE_MODE=auto (the default)', () => {
  let api: TestApi;
  afterEach(async () => {
    await api.close();
  });

  it('asks nothing of a client until it passes its threshold, then asks it alone', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_CLIENT_THRESHOLD: '2', ...CHEAP });
    expect(await status(api)).toEqual({ required: false });
    expect((await postLead(api, validLead())).status).toBe(201);
    expect((await postGdpr(api, { email: 'primo@example.it', requestType: 'access' })).status).toBe(202);
    expect(await status(api)).toEqual({ required: true });

    const third = await postLead(api, validLead());
    expect(third.status).toBe(428);
    expect(third.body).toEqual(required);
    expect((await postLead(api, { ...validLead(), altcha: await solvedPayload(api) })).status).toBe(201);

    // Another client is not asked.
    expect(await status(api, '203.0.113.20')).toEqual({ required: false });
    expect((await postLead(api, validLead(), '203.0.113.20')).status).toBe(201);
  });

  it('counts an IPv6 client on its /64', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_CLIENT_THRESHOLD: '2', ...CHEAP });
    expect((await postLead(api, validLead(), '2001:db8:1:2::1')).status).toBe(201);
    expect((await postLead(api, validLead(), '2001:db8:1:2:aaaa::99')).status).toBe(201);
    expect((await postLead(api, validLead(), '2001:db8:1:2:ffff:1:2:3')).status).toBe(428);
    expect((await postLead(api, validLead(), '2001:db8:1:3::1')).status).toBe(201);
  });

  it('asks every client once all of them together pass the global threshold', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_GLOBAL_THRESHOLD: '3', ...CHEAP });
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      expect((await postLead(api, validLead(), ip)).status).toBe(201);
    }
    expect(await status(api, '203.0.113.4')).toEqual({ required: true });
    expect((await postGdpr(api, { email: 'nuovo@example.it', requestType: 'access' }, '203.0.113.4')).status).toBe(428);
    expect((await postLead(api, { ...validLead(), altcha: await solvedPayload(api) }, '203.0.113.5')).status).toBe(201);
  });

  it('ignores a solution sent when none is required, without using it up', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_CLIENT_THRESHOLD: '1', ...CHEAP });
    const altcha = await solvedPayload(api);
    expect((await postLead(api, { ...validLead(), altcha })).status).toBe(201);
    expect((await postLead(api, { ...validLead(), altcha })).status).toBe(201);
  });
});

describe('CHALLENGE_MODE=off', () => {
  it('never asks, whatever the traffic', async () => {
    const api = await createTestApi({ CHALLENGE_MODE: 'off', CHALLENGE_CLIENT_THRESHOLD: '1', CHALLENGE_GLOBAL_THRESHOLD: '1' });
    try {
      for (let n = 0; n < 3; n += 1) expect((await postLead(api, validLead())).status).toBe(201);
      expect(await status(api)).toEqual({ required: false });
    } finally {
      await api.close();
    }
  });
});

describe('when Redis is unreachable', () => {
  it('still counts (per process), accepts a solution once and refuses its replay', async () => {
    const deadPort = await freePort();
    const api = await createTestApi({
      REDIS_URL: `redis://127.0.0.1:${deadPort}`,
      CHALLENGE_MODE: 'auto',
      CHALLENGE_CLIENT_THRESHOLD: '1',
      ...CHEAP,
    });
    try {
      expect((await postLead(api, validLead())).status).toBe(201);
      expect((await postLead(api, validLead())).status).toBe(428);
      const altcha = await solvedPayload(api);
      expect((await postLead(api, { ...validLead(), altcha })).status).toBe(201);
      expect((await postLead(api, { ...validLead(), altcha })).status).toBe(403);
    } finally {
      await api.close();
    }
  });
});

describe('a solution', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is refused once its challenge has expired', async () => {
    const proofOfWork = createProofOfWork({ sessionSecret: TEST_SESSION_SECRET, cost: 10 });
    const challenge = await proofOfWork.issue();
    const solution = await solveChallenge({ challenge, deriveKey });
    const payload = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    expect(await proofOfWork.verify(payload)).toMatchObject({ valid: true, challengeId: challenge.parameters.nonce });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 601_000 });
    expect(await proofOfWork.verify(payload)).toEqual({ valid: false });
  });

  it('is refused when another secret signed its challenge', async () => {
    const ours = createProofOfWork({ sessionSecret: TEST_SESSION_SECRET, cost: 10 });
    const theirs = createProofOfWork({ sessionSecret: 'another-secret-0123456789abcdefghij', cost: 10 });
    const challenge = await theirs.issue();
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(await ours.verify(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'))).toEqual({
      valid: false,
    });
  });
});
