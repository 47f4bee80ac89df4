import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdprMessages } from '@guida/shared/gdpr-messages';
import { gdprPages } from '@guida/shared/gdpr-server-texts';
import { apiMessages, validationMessages } from '@guida/shared/messages';
import { emailHash, mailboxHash, newLinkToken } from '@guida/shared/server/personal-data-hash';
import { testRedisUrl } from '@guida/testing/services';
import { loggablePath } from '../http/request-logging';
import { createTestApi, type TestApi } from '../testing/test-api';

const post = (api: TestApi, body: unknown, ip = '198.51.100.1') =>
  request(api.app)
    .post('/api/gdpr/requests')
    .set('X-Forwarded-For', ip)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));

let counter = 0;
const uniqueEmail = (label: string) => `${label}.${Date.now()}.${(counter += 1)}@example.it`;

/** A request as the form stores it, with a confirmation link of our choosing. */
async function insertRequest(
  api: TestApi,
  values: { requestType?: string; status?: string; expiresInSeconds?: number } = {},
) {
  const { token, hash } = newLinkToken();
  const email = uniqueEmail('link');
  const [row] = await api.db('gdpr_data_requests')
    .insert({
      email,
      email_hash: emailHash(email),
      request_type: values.requestType ?? 'access',
      status: values.status ?? 'pending',
      confirm_token_hash: hash,
      confirm_expires_at: api.db.raw('now() + make_interval(secs => ?)', [values.expiresInSeconds ?? 3600]),
    })
    .returning('id');
  return { id: row.id as number, token, email };
}

describe('POST /api/gdpr/requests', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('stores a pending request and schedules its confirmation email, answering 202', async () => {
    const response = await post(api, { email: ' Anna.Verdi@Example.IT ', requestType: 'deletion' }).set('User-Agent', 'vitest');
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: gdprMessages.requestReceived });

    const stored = await api.db('gdpr_data_requests').orderBy('id', 'desc').first();
    expect(stored).toMatchObject({
      email: 'anna.verdi@example.it',
      email_hash: emailHash('anna.verdi@example.it'),
      request_type: 'deletion',
      status: 'pending',
      request_data: null,
      ip_address: '198.51.100.0',
      user_agent: 'vitest',
      processed_at: null,
      confirm_token_hash: null,
    });
    const email = await api.db('email_messages').where({ data_request_id: stored.id }).first();
    expect(email).toMatchObject({ kind: 'gdpr-confirm', status: 'pending', lead_id: null });
    expect((await api.deps.queues.queue('email').getJob(`email-${email.id}`))?.data).toEqual({ emailMessageId: email.id });
  });

  it('gives the same answer for an address we know and one we do not', async () => {
    const known = uniqueEmail('noto');
    await request(api.app)
      .post('/api/ebook-request')
      .send({ nome: 'Nota', cognome: 'Persona', email: known, telefono: '+393471110001', gdprConsent: true });
    expect(await api.db('ebook_requests').where({ email: known }).first()).toBeDefined();

    const forKnown = await post(api, { email: known, requestType: 'access' }, '198.51.100.2');
    const forUnknown = await post(api, { email: uniqueEmail('ignoto'), requestType: 'access' }, '198.51.100.2');
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toEqual(forKnown.body);
    expect(Object.keys(forUnknown.headers).sort()).toEqual(Object.keys(forKnown.headers).sort());
    // Both get a confirmation email: only the mailbox's owner can go on.
    const requests = await api.db('gdpr_data_requests').orderBy('id', 'desc').limit(2);
    for (const stored of requests) {
      expect(await api.db('email_messages').where({ data_request_id: stored.id, kind: 'gdpr-confirm' }).first()).toBeDefined();
    }
  });

  it('keeps what to correct for a rectification only', async () => {
    await post(api, { email: uniqueEmail('rett'), requestType: 'rectification', details: 'Il cognome è Neri, non Nero' });
    expect((await api.db('gdpr_data_requests').orderBy('id', 'desc').first()).request_data).toEqual({
      details: 'Il cognome è Neri, non Nero',
    });
  });

  const invalid: [string, unknown, Record<string, string>][] = [
    ['an invalid email', { email: 'anna@', requestType: 'access' }, { email: validationMessages.email }],
    ['no email', { requestType: 'access' }, { email: validationMessages.email }],
    ['an unknown type', { email: 'a@example.it', requestType: 'delete-everything' }, { requestType: validationMessages.requestType }],
    ['no type', { email: 'a@example.it' }, { requestType: validationMessages.requestType }],
    [
      'too long a text',
      { email: 'a@example.it', requestType: 'rectification', details: 'x'.repeat(2001) },
      { details: gdprMessages.detailsTooLong },
    ],
  ];
  it.each(invalid)('refuses %s with an Italian 400 and stores nothing', async (_case, body, errors) => {
    const before = await api.db('gdpr_data_requests').count({ n: '*' }).first();
    const response = await post(api, body, '198.51.100.3');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: Object.values(errors)[0], errors });
    expect(await api.db('gdpr_data_requests').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses malformed bodies, other content types and a filled honeypot in Italian', async () => {
    const malformed = await request(api.app).post('/api/gdpr/requests').set('Content-Type', 'application/json').send('{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: apiMessages.invalidJson });
    const text = await request(api.app).post('/api/gdpr/requests').set('Content-Type', 'text/plain').send('ciao');
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: apiMessages.unsupportedContentType });
    const array = await post(api, [{ email: 'a@example.it', requestType: 'access' }]);
    expect(array.status).toBe(400);
    const bot = await post(api, { email: 'a@example.it', requestType: 'access', website: 'http://spam.example' });
    expect(bot.status).toBe(400);
    expect(bot.body).toEqual({ message: apiMessages.honeypot });
  });

  it('accepts a plain form post and answers with an Italian page', async () => {
    const response = await request(api.app)
      .post('/api/gdpr/requests')
      .type('form')
      .set('Accept', 'text/html')
      .send({ email: uniqueEmail('form'), requestType: 'portability', details: 'ignorato' });
    expect(response.status).toBe(202);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.text).toContain('<html lang="it">');
    expect(response.text).toContain(gdprPages.receivedTitle);
    expect((await api.db('gdpr_data_requests').orderBy('id', 'desc').first()).request_type).toBe('portability');

    const invalid = await request(api.app)
      .post('/api/gdpr/requests')
      .type('form')
      .set('Accept', 'text/html')
      .send({ email: 'non-valida', requestType: 'access' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain(validationMessages.email);
  });
});

describe('rate limits of data requests', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ GDPR_RATE_LIMIT_PER_IP: '3', GDPR_RATE_LIMIT_PER_EMAIL: '2' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('limits each address (IP) per hour, counting invalid requests too', async () => {
    const ip = '203.0.113.20';
    expect((await post(api, { email: 'x' }, ip)).status).toBe(400);
    expect((await post(api, { email: uniqueEmail('ip'), requestType: 'access' }, ip)).status).toBe(202);
    expect((await post(api, { email: uniqueEmail('ip'), requestType: 'access' }, ip)).status).toBe(202);
    const limited = await post(api, { email: uniqueEmail('ip'), requestType: 'access' }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: apiMessages.tooManyRequests });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(api, { email: uniqueEmail('ip'), requestType: 'access' }, '203.0.113.21')).status).toBe(202);
  });

  it('limits each email address per day, whichever IP it comes from, without storing the address in Redis', async () => {
    const email = uniqueEmail('limite');
    expect((await post(api, { email, requestType: 'access' }, '203.0.113.30')).status).toBe(202);
    expect((await post(api, { email, requestType: 'deletion' }, '203.0.113.31')).status).toBe(202);
    const limited = await post(api, { email: email.toUpperCase(), requestType: 'access' }, '203.0.113.32');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: apiMessages.tooManyRequests });

    const redis = new Redis(testRedisUrl());
    try {
      const keys = await redis.keys(`${api.prefix}:rl:gdpr-email*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join('\n')).not.toContain('limite');
      expect(keys.join('\n')).toContain(mailboxHash(email));
    } finally {
      redis.disconnect();
    }
  });
});

describe('the per-address limit on the mailbox', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ GDPR_RATE_LIMIT_PER_EMAIL: '3' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('counts +tags, Gmail dots and googlemail.com as the one mailbox they deliver to', async () => {
    const local = `giulia.verdi${Date.now()}`;
    const spellings = [`${local}@gmail.com`, `${local}+1@gmail.com`, `${local.replace('.', '')}+x@googlemail.com`];
    for (const [index, email] of spellings.entries()) {
      expect((await post(api, { email, requestType: 'access' }, `203.0.113.${40 + index}`)).status).toBe(202);
    }
    const limited = await post(api, { email: `G.${local.slice(1)}+4@GMAIL.com`, requestType: 'access' }, '203.0.113.49');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: apiMessages.tooManyRequests });
    // Another mailbox at the same provider is not affected.
    expect((await post(api, { email: `${local}x@gmail.com`, requestType: 'access' }, '203.0.113.50')).status).toBe(202);
  });
});

describe('the confirmation link', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('shows what it confirms on GET and confirms only on POST (mail scanners open links)', async () => {
    const { id, token } = await insertRequest(api, { requestType: 'deletion' });
    const page = await request(api.app).get(`/gdpr/conferma/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('Cancellazione dei dati');
    expect(page.text).toContain(gdprPages.confirmDeletionWarning);
    expect(page.text).toContain(`<form method="post" action="/gdpr/conferma/${token}">`);
    expect((await api.db('gdpr_data_requests').where({ id }).first()).status).toBe('pending');

    const confirmed = await request(api.app).post(`/gdpr/conferma/${token}`).type('form').send({});
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain(gdprPages.confirmedText);
    const row = await api.db('gdpr_data_requests').where({ id }).first();
    expect(row.status).toBe('confirmed');
    expect(row.confirmed_at).toBeInstanceOf(Date);

    for (const again of [request(api.app).get(`/gdpr/conferma/${token}`), request(api.app).post(`/gdpr/conferma/${token}`)]) {
      const answer = await again;
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(gdprPages.alreadyConfirmedText);
    }
  });

  it('answers an unknown or malformed token with an Italian 404 and an expired one with 410', async () => {
    for (const token of [newLinkToken().token, 'corto', `${'a'.repeat(22)}%00`]) {
      const answer = await request(api.app).get(`/gdpr/conferma/${token}`);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain(gdprPages.invalidLinkTitle);
    }
    const { id, token } = await insertRequest(api, { expiresInSeconds: -60 });
    for (const method of ['get', 'post'] as const) {
      const expired = await request(api.app)[method](`/gdpr/conferma/${token}`);
      expect(expired.status).toBe(410);
      expect(expired.text).toContain(gdprPages.confirmExpiredText);
    }
    expect((await api.db('gdpr_data_requests').where({ id }).first()).status).toBe('pending');
  });

  it('sends no referrer from the pages whose address holds the token', async () => {
    const { token } = await insertRequest(api);
    const answers = [
      await request(api.app).get(`/gdpr/conferma/${token}`),
      await request(api.app).get(`/gdpr/conferma/${newLinkToken().token}`),
      await request(api.app).post(`/gdpr/conferma/${token}`).type('form').send({}),
      await request(api.app).get(`/gdpr/export/${newLinkToken().token}`),
    ];
    for (const answer of answers) expect(answer.headers['referrer-policy']).toBe('no-referrer');
    // The rest of the site keeps its policy.
    expect((await request(api.app).get('/healthz')).headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('keeps tokens out of the request log', () => {
    expect(loggablePath('/gdpr/conferma/abcDEF123_-abcDEF123_-?x=1')).toBe('/gdpr/conferma/:token');
    expect(loggablePath('/gdpr/export/abcDEF123_-abcDEF123_-?format=csv')).toBe('/gdpr/export/:token');
    expect(loggablePath('/gdpr')).toBe('/gdpr');
  });
});

describe('the export link', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function insertExport(expiresInSeconds: number) {
    const request = await insertRequest(api, { status: 'completed' });
    const { token, hash } = newLinkToken();
    await api.db('gdpr_exports').insert({
      data_request_id: request.id,
      json_body: '{"data":{"ebook_requests":[{"nome":"Zoë"}]}}',
      csv_body: 'tabella,id,campo,valore\r\nebook_requests,1,nome,Zoë\r\n',
      token_hash: hash,
      expires_at: api.db.raw('now() + make_interval(secs => ?)', [expiresInSeconds]),
    });
    return { token, dataRequestId: request.id };
  }

  it('serves the JSON, or the CSV with ?format=csv, as a private download', async () => {
    const { token, dataRequestId } = await insertExport(3600);
    const json = await request(api.app).get(`/gdpr/export/${token}`);
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toBe('attachment; filename="dati-personali.json"');
    expect(json.headers['cache-control']).toBe('private, no-store');
    expect(json.body).toEqual({ data: { ebook_requests: [{ nome: 'Zoë' }] } });

    const csv = await request(api.app).get(`/gdpr/export/${token}?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="dati-personali.csv"');
    expect(csv.text).toBe('tabella,id,campo,valore\r\nebook_requests,1,nome,Zoë\r\n');
    expect(await api.db('gdpr_exports').where({ data_request_id: dataRequestId }).first()).toMatchObject({ download_count: 2 });
  });

  it('answers an expired link with 410 and an unknown one with 404, in Italian', async () => {
    const { token } = await insertExport(-1);
    const expired = await request(api.app).get(`/gdpr/export/${token}`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain(gdprPages.exportExpiredText);
    const unknown = await request(api.app).get(`/gdpr/export/${newLinkToken().token}?format=csv`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain(gdprPages.invalidLinkText);
  });
});
