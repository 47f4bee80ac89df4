import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsMessages } from '@guida/shared/messages';
import { createTestApi, type TestApi } from '../testing/test-api';

const lines: string[] = [];
let api: TestApi;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  api = await createTestApi({}, { logger: pino({ level: 'info' }, sink) });
});
afterAll(async () => {
  await api.close();
});

// The spec's id generator: 21 characters of the URL-safe alphabet.
const sessionId = 'V1StGXR8_Z5jdHi6B-myT';
const choice = { essential: true, analytics: true, marketing: false, preferences: true };

describe('cookie consent', () => {
  it('stores a choice under a 21-character random id and reads it back', async () => {
    expect((await request(api.app).post('/api/cookie-consent').send({ sessionId, ...choice })).status).toBe(201);
    const read = await request(api.app).get(`/api/cookie-consent/${sessionId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(choice);
    expect((await request(api.app).get('/api/cookie-consent/A1StGXR8_Z5jdHi6B-myT')).status).toBe(404);
  });

  it('refuses shorter or foreign-alphabet ids with 400 in Italian, on both routes', async () => {
    for (const id of ['abcdefgh', 'V1StGXR8_Z5jdHi6B-my', 'V1StGXR8_Z5jdHi6B-my.', 'V1StGXR8 Z5jdHi6B-myT']) {
      const read = await request(api.app).get(`/api/cookie-consent/${encodeURIComponent(id)}`);
      expect(read.status).toBe(400);
      expect(read.body.message).toBe(analyticsMessages.sessionId);
      const write = await request(api.app).post('/api/cookie-consent').send({ sessionId: id, ...choice });
      expect(write.status).toBe(400);
      expect(write.body.errors).toEqual({ sessionId: analyticsMessages.sessionId });
    }
  });

  it('never writes a session id to the request log', async () => {
    await request(api.app).get(`/api/cookie-consent/${sessionId}`).expect(200);
    const log = lines.join('');
    expect(log).toContain('/api/cookie-consent/:sessionId');
    expect(log).not.toContain(sessionId);
  });
});
