import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsMessages, apiMessages, validationMessages } from '@guida/shared/messages';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

const SITE = 'https://guida.example';
const session = 'V1StGXR8_Z5jdHi6B-myT';

/** One valid body per public write route. */
const routes = () => [
  { path: '/api/ebook-request', body: validLead(), form: true },
  { path: '/api/gdpr/requests', body: { email: 'anna@example.it', requestType: 'access' }, form: true },
  { path: '/api/analytics/page-view', body: { sessionId: session, path: '/' }, form: false },
  {
    path: '/api/analytics/batch',
    body: { events: [{ type: 'section-view', sessionId: session, section: 'faq', timeSpent: 3 }] },
    form: false,
  },
  {
    path: '/api/cookie-consent',
    body: { sessionId: session, analytics: true, marketing: false, preferences: false },
    form: false,
  },
];

describe('the public intake', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ PUBLIC_BASE_URL: SITE, GDPR_RATE_LIMIT_PER_IP: '100' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('refuses a cross-site browser post on every public write with 403 in Italian', async () => {
    for (const route of routes()) {
      const crossSite = await request(api.app).post(route.path).set('Sec-Fetch-Site', 'cross-site').send(route.body);
      expect(crossSite.status, route.path).toBe(403);
      expect(crossSite.body, route.path).toEqual({ message: apiMessages.crossSiteRequest });

      const otherOrigin = await request(api.app).post(route.path).set('Origin', 'https://evil.example').send(route.body);
      expect(otherOrigin.status, route.path).toBe(403);
      const opaqueOrigin = await request(api.app).post(route.path).set('Origin', 'null').send(route.body);
      expect(opaqueOrigin.status, route.path).toBe(403);
      // Whatever the Origin says, a browser that calls the request cross-site is believed.
      const both = await request(api.app)
        .post(route.path)
        .set('Origin', SITE)
        .set('Sec-Fetch-Site', 'cross-site')
        .send(route.body);
      expect(both.status, route.path).toBe(403);
    }
    expect(Number((await api.db('ebook_requests').count({ n: '*' }).first())?.n)).toBe(0);
  });

  it('accepts same-origin and same-site browser posts and requests without those headers', async () => {
    for (const route of routes()) {
      let call = 0;
      // A new phone and address each time: their own limits are not what is tested here.
      const fresh = () => {
        call += 1;
        if (route.path === '/api/ebook-request') return validLead();
        if (route.path === '/api/gdpr/requests') return { ...route.body, email: `anna.${call}@example.it` };
        return route.body;
      };
      const sameOrigin = await request(api.app)
        .post(route.path)
        .set('Origin', SITE)
        .set('Sec-Fetch-Site', 'same-origin')
        .send(fresh());
      expect(sameOrigin.status, route.path).toBeLessThan(300);
      const sameSite = await request(api.app).post(route.path).set('Sec-Fetch-Site', 'same-site').send(fresh());
      expect(sameSite.status, route.path).toBeLessThan(300);
      // An older browser sends only Origin: this site as the request reached us.
      const host = await request(api.app).post(route.path).set('Host', 'guida.test').set('Origin', 'http://guida.test').send(fresh());
      expect(host.status, route.path).toBeLessThan(300);
      const server = await request(api.app).post(route.path).send(fresh());
      expect(server.status, route.path).toBeLessThan(300);
    }
  });

  it('keeps the no-JavaScript form working: a same-origin form post gets its 303', async () => {
    const lead = validLead();
    const response = await request(api.app)
      .post('/api/ebook-request')
      .type('form')
      .set('Accept', 'text/html')
      .set('Origin', SITE)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ ...lead, gdprConsent: 'on' });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/grazie-italia');
  });

  it('reads JSON everywhere, form posts only where the no-JavaScript form posts, never text/plain', async () => {
    for (const route of routes()) {
      const text = await request(api.app).post(route.path).set('Content-Type', 'text/plain').send(JSON.stringify(route.body));
      expect(text.status, route.path).toBe(415);
      expect(text.body, route.path).toEqual({ message: apiMessages.unsupportedContentType });
      const multipart = await request(api.app).post(route.path).field('nome', 'Mario');
      expect(multipart.status, route.path).toBe(415);
      const form = await request(api.app).post(route.path).type('form').send({ sessionId: session });
      expect(form.status, route.path).toBe(route.form ? 400 : 415);
      const empty = await request(api.app).post(route.path);
      expect(empty.status, route.path).toBe(415);
    }
  });

  it('refuses a body that is not an object, and an oversized one', async () => {
    for (const route of routes()) {
      const array = await request(api.app).post(route.path).set('Content-Type', 'application/json').send('[1,2]');
      expect(array.status, route.path).toBe(400);
      expect(array.body, route.path).toEqual({ message: apiMessages.invalidRequest });
      const scalar = await request(api.app).post(route.path).set('Content-Type', 'application/json').send('"ciao"');
      expect(scalar.body, route.path).toEqual({ message: apiMessages.invalidJson });
    }
    const consent = await request(api.app)
      .post('/api/cookie-consent')
      .send({ sessionId: session, analytics: true, marketing: false, preferences: false, x: 'y'.repeat(4000) });
    expect(consent.status).toBe(413);
    const batch = await request(api.app)
      .post('/api/analytics/batch')
      .send({ events: [{ type: 'section-view', sessionId: session, section: 'faq', timeSpent: 3 }], x: 'y'.repeat(70_000) });
    expect(batch.status).toBe(413);
    expect(batch.body).toEqual({ message: apiMessages.payloadTooLarge });
  });

  it('refuses control characters in every free-text field with the Italian message', async () => {
    const fields = ['nome', 'cognome', 'source', 'utmSource', 'utmMedium', 'utmCampaign', 'landingPath'];
    for (const field of fields) {
      const response = await request(api.app)
        .post('/api/ebook-request')
        .send(validLead({ [field]: `Ma\u0000rio${field === 'landingPath' ? '/' : ''}` }));
      expect(response.status, field).toBe(400);
      expect(response.body.errors, field).toEqual({ [field]: validationMessages.controlCharacters });
    }
    const gdpr = await request(api.app)
      .post('/api/gdpr/requests')
      .send({ email: 'anna@example.it', requestType: 'rectification', details: 'Il mio nome\u0007 è sbagliato' });
    expect(gdpr.status).toBe(400);
    expect(gdpr.body.errors).toEqual({ details: validationMessages.controlCharacters });
    const pageView = await request(api.app).post('/api/analytics/page-view').send({ sessionId: session, path: '/\u0000' });
    expect(pageView.status).toBe(400);
    expect(pageView.body.errors).toEqual({ path: validationMessages.controlCharacters });
    // Tab, line feed and carriage return are text.
    const multiline = await request(api.app)
      .post('/api/gdpr/requests')
      .send({ email: 'anna@example.it', requestType: 'rectification', details: 'Riga uno\r\n\tRiga due' });
    expect(multiline.status).toBe(202);
  });

  it('answers zod issues without a message of ours in Italian', async () => {
    const wrongTypes = await request(api.app)
      .post('/api/cookie-consent')
      .send({ sessionId: session, analytics: 'sì', marketing: 1, preferences: null });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body).toEqual({
      message: validationMessages.invalidValue,
      errors: {
        analytics: validationMessages.invalidValue,
        marketing: validationMessages.invalidValue,
        preferences: validationMessages.invalidValue,
      },
    });
    const section = await request(api.app)
      .post('/api/analytics/section-view')
      .send({ sessionId: session, section: 'faq', timeSpent: 'tanto' });
    expect(section.body.errors).toEqual({ timeSpent: validationMessages.invalidValue });
    const tooLong = await request(api.app)
      .post('/api/analytics/section-view')
      .send({ sessionId: session, section: 'x'.repeat(500), timeSpent: 1 });
    expect(tooLong.body.errors).toEqual({ section: analyticsMessages.tooLong });
  });

  it('answers malformed bodies with 4xx in Italian, never 500', async () => {
    const raw = (body: string | Buffer) =>
      request(api.app).post('/api/ebook-request').set('Content-Type', 'application/json').send(body);
    const lead = JSON.stringify(validLead());
    // JSON.parse keeps the last copy of a duplicated key: it must pass the same rules.
    const duplicated = await raw(`${lead.slice(0, -1)},"nome":"Ma\\u0000rio"}`);
    expect(duplicated.status).toBe(400);
    expect(duplicated.body.errors).toEqual({ nome: validationMessages.controlCharacters });
    const surrogate = await request(api.app)
      .post('/api/gdpr/requests')
      .set('Content-Type', 'application/json')
      .send('{"email":"anna@example.it","requestType":"rectification","details":"\\udfff\\ud800"}');
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.errors).toEqual({ details: validationMessages.controlCharacters });
    // Own "__proto__" and "constructor" keys are data, dropped by the schema.
    const proto = await raw(`${lead.slice(0, -1)},"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}`);
    expect(proto.status).toBe(201);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const deep = await raw(`${'{"nome":'.repeat(1500)}1${'}'.repeat(1500)}`);
    expect(deep.status).toBe(400);
    const badUtf8 = await raw(Buffer.concat([Buffer.from('{"nome":"Ma'), Buffer.from([0xc0, 0x80, 0xff]), Buffer.from('rio"}')]));
    expect(badUtf8.status).toBe(400);
    expect(Object.values(validationMessages)).toContain(badUtf8.body.message);
    const charset = await request(api.app).post('/api/ebook-request').set('Content-Type', 'application/json; charset=latin1').send(lead);
    expect(charset.status).toBe(415);
    expect(charset.body).toEqual({ message: apiMessages.unsupportedContentType });
  });
});
