import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { gdprMessages } from '@guida/shared/gdpr-messages';
import { gdprPages } from '@guida/shared/gdpr-server-texts';
import { apiMessages, challengeMessages, challengePage, offerEndedTexts } from '@guida/shared/messages';
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
});

/** Everything a lead or a data-rights request leaves behind: rows and queued jobs. */
async function footprint(api: TestApi) {
  const count = async (table: string) => Number((await api.db(table).count({ n: '*' }).first())?.n);
  const jobs = async (name: 'sms' | 'crm' | 'email' | 'gdpr') =>
    Object.values(await api.deps.queues.queue(name).getJobCounts()).reduce((sum, n) => sum + n, 0);
  return {
    leads: await count('ebook_requests'),
    consents: await count('gdpr_consents'),
    sms: await count('sms_messages'),
    crm: await count('crm_deliveries'),
    dataRequests: await count('gdpr_data_requests'),
    emails: await count('email_messages'),
    smsJobs: await jobs('sms'),
    crmJobs: await jobs('crm'),
    emailJobs: await jobs('email'),
    gdprJobs: await jobs('gdpr'),
  };
}
const NOTHING = { leads: 0, consents: 0, sms: 0, crm: 0, dataRequests: 0, emails: 0, smsJobs: 0, crmJobs: 0, emailJobs: 0, gdprJobs: 0 };

const SITE = 'https://guida.example';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** What a browser without JavaScript sends when the lead form of `page` is submitted. */
const postLeadForm = (api: TestApi, fields: Record<string, string>, page: string | null = '/trading-milano?utm_source=partner', ip = CLIENT) => {
  const post = request(api.app)
    .post('/api/ebook-request')
    .set('X-Forwarded-For', ip)
    .set('Host', new URL(SITE).host)
    .set('Accept', BROWSER_ACCEPT)
    .set('Origin', SITE)
    .set('Sec-Fetch-Site', 'same-origin')
    .type('form');
  if (page) post.set('Referer', `${SITE}${page}`);
  return post.send(fields);
};

const leadFields = (overrides: Record<string, string> = {}) => {
  const { telefono, email, nome, cognome } = validLead();
  return { nome, cognome, email, telefono, gdprConsent: 'on', landingPath: '/trading-milano', ebookType: 'financial-education', source: 'landing-page', ...overrides } as Record<string, string>;
};

const postGdprForm = (api: TestApi, fields: Record<string, string>, ip = CLIENT) =>
  request(api.app)
    .post('/api/gdpr/requests')
    .set('X-Forwarded-For', ip)
    .set('Accept', BROWSER_ACCEPT)
    .set('Referer', `${SITE}/gdpr`)
    .type('form')
    .send(fields);

/** The Italian page's title, paragraphs and link back to the form. */
function challengePageOf(response: request.Response) {
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['cache-control']).toBe('no-store');
  const html = response.text;
  expect(html).toContain('<html lang="it">');
  const main = html.slice(html.indexOf('<main>'), html.indexOf('</main>'));
  const unescape = (text: string) => text.replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)));
  return {
    title: unescape(/<h1>(.*?)<\/h1>/.exec(main)?.[1] ?? ''),
    paragraphs: [...main.matchAll(/<p>(?!<a)(.*?)<\/p>/g)].map((match) => unescape(match[1]!)),
    link: [...main.matchAll(/<a href="([^"]*)">(.*?)<\/a>/g)].map((match) => ({ href: unescape(match[1]!), label: unescape(match[2]!) }))[0],
  };
}

describe('a form posted without JavaScript, with CHALLENGE_MODE=always', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'always', PUBLIC_BASE_URL: SITE, ...CHEAP });
  });
  afterAll(async () => {
    await api.close();
  });

  it('gets an Italian page (428) that explains the check and links back to the form, and nothing is stored or sent', async () => {
    const response = await postLeadForm(api, leadFields({ email: 'senza-js@example.it' }));
    expect(response.status).toBe(428);
    expect(challengePageOf(response)).toEqual({
      title: challengePage.title,
      paragraphs: [challengePage.why, challengePage.nothingSent, challengePage.how],
      // The page it came from, with its campaign, at the form.
      link: { href: '/trading-milano?utm_source=partner#richiedi-guida', label: challengePage.back },
    });
    expect(await footprint(api)).toEqual(NOTHING);
  });

  it('links back to the form of the posted landing page without a Referer, and to the home page for a path not of this site', async () => {
    const withoutReferer = await postLeadForm(api, leadFields({ landingPath: '/educazione-investimenti' }), null);
    expect(challengePageOf(withoutReferer).link?.href).toBe('/educazione-investimenti#richiedi-guida');
    const foreign = await postLeadForm(api, leadFields({ landingPath: '//evil.example/x' }), null);
    expect(challengePageOf(foreign).link?.href).toBe('/#richiedi-guida');
    const otherSite = await request(api.app)
      .post('/api/ebook-request')
      .set('X-Forwarded-For', CLIENT)
      .set('Accept', BROWSER_ACCEPT)
      .set('Referer', 'https://evil.example/trading-milano?x=1')
      .type('form')
      .send(leadFields({ landingPath: '/trading-roma' }));
    expect(challengePageOf(otherSite).link?.href).toBe('/trading-roma#richiedi-guida');
    expect(await footprint(api)).toEqual(NOTHING);
  });

  it('answers a form post that asks for JSON with the JSON 428', async () => {
    const response = await request(api.app).post('/api/ebook-request').set('X-Forwarded-For', CLIENT).set('Accept', 'application/json').type('form').send(leadFields());
    expect(response.status).toBe(428);
    expect(response.body).toEqual(required);
  });

  it('accepts a form post that carries a valid solution (the widget ran) with its 303, once', async () => {
    const altcha = await solvedPayload(api);
    const accepted = await postLeadForm(api, leadFields({ email: 'widget-risolto@example.it', altcha }));
    expect(accepted.status).toBe(303);
    expect(accepted.headers.location).toBe('/grazie-italia');
    expect(await api.db('ebook_requests').where({ email: 'widget-risolto@example.it' }).first()).toBeDefined();
    const replayed = await postLeadForm(api, leadFields({ email: 'replay-form@example.it', altcha }));
    expect(replayed.status).toBe(403);
    expect(challengePageOf(replayed)).toMatchObject({
      title: challengePage.title,
      paragraphs: [challengePage.invalid, challengePage.nothingSent, challengePage.how],
    });
    expect(await api.db('ebook_requests').where({ email: 'replay-form@example.it' }).first()).toBeUndefined();
    // A forged one is no better than none.
    expect((await postLeadForm(api, leadFields({ altcha: 'bm9uIMOoIHVuYSBzb2x1emlvbmU=' }))).status).toBe(403);
  });

  it('holds the data-rights form to the same rule, with its own way back and another way to ask', async () => {
    const before = await footprint(api);
    const response = await postGdprForm(api, { email: 'diritti-senza-js@example.it', requestType: 'access' });
    expect(response.status).toBe(428);
    expect(challengePageOf(response)).toEqual({
      title: challengePage.title,
      paragraphs: [challengePage.why, challengePage.nothingSent, challengePage.how, gdprPages.challengeAlternative],
      link: { href: '/gdpr#richiesta-gdpr', label: challengePage.back },
    });
    expect(await footprint(api)).toEqual(before);

    const accepted = await postGdprForm(api, { email: 'diritti-widget@example.it', requestType: 'access', altcha: await solvedPayload(api) });
    expect(accepted.status).toBe(202);
    expect(await api.db('gdpr_data_requests').where({ email: 'diritti-widget@example.it' }).first()).toBeDefined();
  });

  it('meets the intake\'s refusals first (cross-site 403, content type 415, rate limit 429)', async () => {
    const crossSite = await postLeadForm(api, leadFields()).set('Sec-Fetch-Site', 'cross-site');
    expect(crossSite.status).toBe(403);
    const text = await request(api.app).post('/api/ebook-request').set('Content-Type', 'text/plain').send('nome=Mario');
    expect(text.status).toBe(415);
    const limited = await createTestApi({ CHALLENGE_MODE: 'always', LEAD_RATE_LIMIT_PER_IP: '1', ...CHEAP });
    try {
      expect((await postLeadForm(limited, leadFields())).status).toBe(428);
      const flooded = await postLeadForm(limited, leadFields());
      expect(flooded.status).toBe(429);
      expect(flooded.text).toContain(apiMessages.tooManyRequests);
    } finally {
      await limited.close();
    }
  });
});

describe('an ended offer and the challenge', () => {
  it('answers 410 before asking for a solution (decision 047)', async () => {
    const api = await createTestApi({ CHALLENGE_MODE: 'always', OFFER_ENDS_AT: '2031-02-01T00:00:00+01:00', ...CHEAP }, { now: () => new Date('2031-02-02T00:00:00Z') });
    try {
      const form = await postLeadForm(api, leadFields());
      expect(form.status).toBe(410);
      expect(challengePageOf(form).title).toBe(offerEndedTexts.title);
      expect((await postLead(api, validLead())).status).toBe(410);
      expect(await footprint(api)).toEqual(NOTHING);
    } finally {
      await api.close();
    }
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

  it('counts an IPv6 client\'s /48 and an IPv4 client\'s /24 too, with a multiple of the threshold', async () => {
    api = await createTestApi({
      CHALLENGE_MODE: 'auto',
      CHALLENGE_CLIENT_THRESHOLD: '2',
      RATE_LIMIT_IPV6_48_FACTOR: '2',
      RATE_LIMIT_IPV4_24_FACTOR: '3',
      ...CHEAP,
    });
    // One submission from each of four /64s of one /48: its threshold is 2 × 2.
    for (const subnet of [1, 2, 3, 4]) expect((await postLead(api, validLead(), `2001:db8:7:${subnet}::1`)).status).toBe(201);
    expect(await status(api, '2001:db8:7:99::1')).toEqual({ required: true });
    expect((await postLead(api, validLead(), '2001:db8:7:5::1')).status).toBe(428);
    expect((await postLead(api, validLead(), '2001:db8:8:1::1')).status).toBe(201);
    // Six addresses of one /24 (2 × 3), then its seventh is asked; the next /24 is not.
    for (const host of [1, 2, 3, 4, 5, 6]) expect((await postLead(api, validLead(), `192.0.2.${host}`)).status).toBe(201);
    expect((await postLead(api, validLead(), '192.0.2.7')).status).toBe(428);
    expect((await postLead(api, validLead(), '192.0.3.7')).status).toBe(201);
  });

  it('does not count at the /24 what a client sent beyond its own threshold', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_CLIENT_THRESHOLD: '2', RATE_LIMIT_IPV4_24_FACTOR: '2', ...CHEAP });
    // One address past its own threshold: its neighbours behind the same carrier are not asked.
    for (let n = 0; n < 2; n += 1) expect((await postLead(api, validLead(), '198.51.100.1')).status).toBe(201);
    for (let n = 0; n < 5; n += 1) expect((await postLead(api, validLead(), '198.51.100.1')).status).toBe(428);
    expect((await postLead(api, validLead(), '198.51.100.2')).status).toBe(201);
    expect((await postLead(api, validLead(), '198.51.100.3')).status).toBe(201);
    expect((await postLead(api, validLead(), '198.51.100.4')).status).toBe(428);
  });

  it('lets the plain form through below the thresholds, as always, and gives the page once they are passed', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_CLIENT_THRESHOLD: '2', PUBLIC_BASE_URL: SITE, ...CHEAP });
    for (const email of ['primo-form@example.it', 'secondo-form@example.it']) {
      const response = await postLeadForm(api, leadFields({ email }));
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe('/grazie-italia');
    }
    const stored = await footprint(api);
    expect(stored).toMatchObject({ leads: 2, sms: 2, crm: 2, smsJobs: 2 });

    const third = await postLeadForm(api, leadFields({ email: 'terzo-form@example.it' }));
    expect(third.status).toBe(428);
    expect(challengePageOf(third)).toMatchObject({ title: challengePage.title, link: { href: '/trading-milano?utm_source=partner#richiedi-guida' } });
    const gdpr = await postGdprForm(api, { email: 'terzo-diritti@example.it', requestType: 'access' });
    expect(gdpr.status).toBe(428);
    expect(await footprint(api)).toEqual(stored);

    // Another client's plain form still goes through; this one's, with the widget's solution.
    expect((await postLeadForm(api, leadFields(), undefined, '203.0.113.30')).status).toBe(303);
    expect((await postLeadForm(api, leadFields({ altcha: await solvedPayload(api) }))).status).toBe(303);
  });

  it('gives the page to every plain form once all clients together pass the global threshold', async () => {
    api = await createTestApi({ CHALLENGE_MODE: 'auto', CHALLENGE_GLOBAL_THRESHOLD: '3', PUBLIC_BASE_URL: SITE, ...CHEAP });
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      expect((await postLeadForm(api, leadFields(), undefined, ip)).status).toBe(303);
    }
    const before = await footprint(api);
    const refused = await postLeadForm(api, leadFields(), undefined, '198.51.100.50');
    expect(refused.status).toBe(428);
    expect(challengePageOf(refused).title).toBe(challengePage.title);
    expect(await footprint(api)).toEqual(before);
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
