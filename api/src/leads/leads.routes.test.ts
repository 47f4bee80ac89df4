import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { MARKETING_CONSENT_VERSION, PRIVACY_CONSENT_VERSION } from '@guida/shared/lead-rules';
import { analyticsMessages, apiMessages, marketingConsentText, privacyConsentText, validationMessages } from '@guida/shared/messages';
import { freePort } from '@guida/testing/free-port';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../testing/test-api';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const post = (api: TestApi, body: unknown) =>
  request(api.app).post('/api/ebook-request').set('Content-Type', 'application/json').send(JSON.stringify(body));
/** A fresh id of the spec's generator's shape (21+ URL-safe characters). */
const newSessionId = () => randomBytes(18).toString('base64url');
/** Records a cookie choice as the banner does, and answers its session id. */
async function cookieChoice(api: TestApi, marketing: boolean, sessionId = newSessionId()) {
  const response = await request(api.app)
    .post('/api/cookie-consent')
    .send({ sessionId, essential: true, analytics: false, marketing, preferences: false });
  expect(response.status).toBe(201);
  return sessionId;
}

describe('POST /api/ebook-request', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('stores a valid lead with its consent proof, deliveries and token, and enqueues both jobs', async () => {
    const lead = validLead({ email: '  Mario.Rossi@Example.IT ', telefono: '347 555 0101' });
    const response = await post(api, lead).set('User-Agent', 'vitest-agent');

    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number), redirectTo: '/grazie-italia' });
    const id = response.body.id as number;

    const stored = await api.db('ebook_requests').where({ id }).first();
    expect(stored).toMatchObject({
      nome: 'Mario',
      cognome: 'Rossi',
      email: 'mario.rossi@example.it',
      telefono: '+393475550101',
      country: 'IT',
      ebook_type: 'financial-education',
      source: 'landing-page',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'autunno',
      gdpr_consent: true,
      marketing_consent: false,
      marketing_consent_version: null,
      consent_version: PRIVACY_CONSENT_VERSION,
      data_retention_notified: false,
      user_agent: 'vitest-agent',
    });
    // supertest connects over loopback: the address is stored truncated.
    expect(stored.ip_address).toMatch(/^(127\.0\.0\.0|::)$/);
    expect(stored.consent_timestamp).toBeInstanceOf(Date);

    const consents = await api.db('gdpr_consents').where({ lead_id: id });
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({
      consent_type: 'privacy',
      consented: true,
      consent_version: PRIVACY_CONSENT_VERSION,
      email: 'mario.rossi@example.it',
      ip_address: stored.ip_address,
      user_agent: 'vitest-agent',
    });
    expect(consents[0].consent_text_hash).toBe(sha256(privacyConsentText));

    expect(await api.db('sms_messages').where({ lead_id: id }).first()).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await api.db('crm_deliveries').where({ lead_id: id }).first()).toMatchObject({
      event: 'lead.created',
      status: 'pending',
    });
    const token = await api.db('download_tokens').where({ lead_id: id }).first();
    // Keyed by the worker when it sends the link: the token itself is never stored.
    expect(token.token_hash).toBeNull();
    expect(token).not.toHaveProperty('token');
    const ttlDays = (token.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(ttlDays).toBeGreaterThan(29.9);
    expect(ttlDays).toBeLessThanOrEqual(30);

    const smsJob = await api.deps.queues.queue('sms').getJob(`lead-${id}`);
    expect(smsJob?.data).toEqual({ leadId: id });
    const crmJob = await api.deps.queues.queue('crm').getJob(`lead-${id}`);
    expect(crmJob?.data).toMatchObject({ leadId: id, event: 'lead.created' });
  });

  it('records a given marketing consent as a second consent with its own text version and hash', async () => {
    const response = await post(api, validLead({ marketingConsent: true })).set('User-Agent', 'vitest-agent');
    expect(response.status).toBe(201);
    const consents = await api.db('gdpr_consents').where({ lead_id: response.body.id }).orderBy('consent_type');
    expect(consents.map((c) => [c.consent_type, c.consented, c.consent_version, c.consent_text_hash])).toEqual([
      ['marketing', true, MARKETING_CONSENT_VERSION, sha256(marketingConsentText)],
      ['privacy', true, PRIVACY_CONSENT_VERSION, sha256(privacyConsentText)],
    ]);
    // The same proof as the privacy consent's: same time, address and browser.
    expect(consents[0]).toMatchObject({
      email: consents[1].email,
      timestamp: consents[1].timestamp,
      ip_address: consents[1].ip_address,
      user_agent: 'vitest-agent',
    });
    expect(await api.db('ebook_requests').where({ id: response.body.id }).first()).toMatchObject({
      marketing_consent: true,
      marketing_consent_version: MARKETING_CONSENT_VERSION,
      consent_version: PRIVACY_CONSENT_VERSION,
    });
  });

  it('stores no marketing consent when it is refused or left out', async () => {
    // validLead() sends no marketingConsent at all, as the older clients do.
    for (const body of [validLead(), validLead({ marketingConsent: false }), validLead({ marketingConsent: null })]) {
      const response = await post(api, body);
      expect(response.status).toBe(201);
      expect(await api.db('ebook_requests').where({ id: response.body.id }).first()).toMatchObject({
        marketing_consent: false,
        marketing_consent_version: null,
      });
      expect(await api.db('gdpr_consents').where({ lead_id: response.body.id }).pluck('consent_type')).toEqual(['privacy']);
    }
  });

  it('refuses a marketing consent that is not a yes or a no', async () => {
    for (const marketingConsent of ['true', 1, 'sì']) {
      const response = await post(api, validLead({ marketingConsent }));
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual({ marketingConsent: validationMessages.invalidValue });
    }
  });

  it('sends Swiss numbers and Swiss pages to /grazie-svizzera, saying when the number is Italian', async () => {
    const swissPhone = await post(api, validLead({ telefono: '+41 79 555 01 02' }));
    expect(swissPhone.status).toBe(201);
    expect(swissPhone.body.redirectTo).toBe('/grazie-svizzera');
    expect(await api.db('ebook_requests').where({ id: swissPhone.body.id }).first()).toMatchObject({
      telefono: '+41795550102',
      country: 'CH',
    });

    const swissPage = await post(api, validLead({ landingPath: '/trading-automatico-svizzera' }));
    expect(swissPage.body.redirectTo).toBe('/grazie-svizzera?prefisso=39');
    const swissRoute = await post(api, validLead({ landingPath: '/swiss-offer' }));
    expect(swissRoute.body.redirectTo).toBe('/grazie-svizzera?prefisso=39');
  });

  it('applies the defaults of the older page, which sends only the four personal fields', async () => {
    const response = await post(api, {
      nome: 'Giulia',
      cognome: 'Verdi',
      email: 'giulia@example.it',
      telefono: uniqueItalianMobile(),
      gdprConsent: true,
    });
    expect(response.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: response.body.id }).first()).toMatchObject({
      ebook_type: 'general',
      source: 'direct',
      utm_source: 'direct',
      first_utm_source: 'direct',
      landing_path: null,
    });
  });

  it('stores utm_source "direct" for a lead without one, sent as JSON or as a plain form, and keeps one given', async () => {
    const stored = (id: number) => api.db('ebook_requests').where({ id }).first();
    // What the page's script sends for a visit whose address had no utm_source.
    const json = await post(api, {
      ...validLead({ utmSource: null, utmMedium: null, utmCampaign: null }),
      referrerHost: 'www.bing.com',
      firstTouch: { utmSource: null, referrerHost: 'www.bing.com' },
    });
    expect(json.status).toBe(201);
    expect(await stored(json.body.id)).toMatchObject({
      utm_source: 'direct',
      utm_medium: null,
      referrer_host: 'www.bing.com',
      first_utm_source: 'direct',
      first_referrer_host: 'www.bing.com',
    });

    // A form sent without JavaScript: its campaign is only in the page's address (the Referer).
    const plainForm = async (referer?: string) => {
      const telefono = uniqueItalianMobile();
      const sent = request(api.app).post('/api/ebook-request').type('form').set('Host', '127.0.0.1');
      const response = await (referer ? sent.set('Referer', referer) : sent).send({
        nome: 'Ada',
        cognome: 'Riva',
        email: 'ada@example.it',
        telefono,
        gdprConsent: 'on',
      });
      return { status: response.status, lead: await api.db('ebook_requests').where({ telefono }).first() };
    };
    for (const referer of ['http://127.0.0.1/educazione-investimenti?utm_medium=email', undefined]) {
      const form = await plainForm(referer);
      expect(form.status, String(referer)).toBe(303);
      expect(form.lead, String(referer)).toMatchObject({ utm_source: 'direct', first_utm_source: 'direct' });
    }
    expect((await plainForm('http://127.0.0.1/?utm_source=partner')).lead).toMatchObject({
      utm_source: 'partner',
      first_utm_source: 'partner',
    });

    const given = await post(api, { ...validLead(), firstTouch: { utmSource: 'facebook' } });
    expect(await stored(given.body.id)).toMatchObject({ utm_source: 'google', first_utm_source: 'facebook' });
  });

  const invalidFields: [string, Record<string, unknown>, string][] = [
    ['nome too short', { nome: 'M' }, validationMessages.nome],
    ['nome missing', { nome: undefined }, validationMessages.nome],
    ['cognome too short', { cognome: ' R ' }, validationMessages.cognome],
    ['email invalid', { email: 'mario@' }, validationMessages.email],
    ['email missing', { email: undefined }, validationMessages.email],
    ['telefono too short', { telefono: '347' }, validationMessages.telefono],
    ['telefono landline', { telefono: '06 1234 5678' }, validationMessages.telefono],
    ['telefono foreign mobile', { telefono: '+44 7700 900123' }, validationMessages.telefono],
    ['telefono letters', { telefono: 'chiamami pure' }, validationMessages.telefono],
    ['ebookType unknown', { ebookType: 'crypto' }, validationMessages.ebookType],
  ];
  it.each(invalidFields)('refuses %s with the spec message', async (_case, change, message) => {
    const field = Object.keys(change)[0]!;
    const before = await api.db('ebook_requests').count({ n: '*' }).first();
    const response = await post(api, validLead(change));
    expect(response.status).toBe(400);
    expect(response.body.errors[field]).toBe(message);
    expect(response.body.message).toBe(message);
    expect(await api.db('ebook_requests').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses a request without consent', async () => {
    for (const gdprConsent of [false, undefined, 'true']) {
      const response = await post(api, validLead({ gdprConsent }));
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual({ gdprConsent: validationMessages.gdprConsent });
    }
  });

  it('stores a repeated phone within 24 hours as its own lead, linked to the first, without a second SMS', async () => {
    const telefono = uniqueItalianMobile();
    const first = await post(api, validLead({ telefono }));
    const again = await post(api, validLead({ telefono: telefono.replace('+39', '0039 '), nome: 'Marco', marketingConsent: true }));

    // The same answer as for any first request: its own id, nothing that names the first.
    expect(again.status).toBe(first.status);
    expect(Object.keys(again.body)).toEqual(Object.keys(first.body));
    expect(again.body.redirectTo).toBe(first.body.redirectTo);
    expect(again.body.id).toEqual(expect.any(Number));
    expect(again.body.id).not.toBe(first.body.id);

    const stored = await api.db('ebook_requests').where({ id: again.body.id }).first();
    expect(stored).toMatchObject({ telefono, nome: 'Marco', marketing_consent: true, repeat_of: first.body.id });
    expect(await api.db('ebook_requests').where({ id: first.body.id }).first('repeat_of')).toEqual({ repeat_of: null });
    // Its consents are recorded and it reaches the CRM; it gets no SMS and no link.
    expect(await api.db('gdpr_consents').where({ lead_id: again.body.id }).pluck('consent_type')).toEqual(
      expect.arrayContaining(['privacy', 'marketing']),
    );
    expect(await api.db('crm_deliveries').where({ lead_id: again.body.id }).first()).toMatchObject({ event: 'lead.created' });
    expect(await api.deps.queues.queue('crm').getJob(`lead-${again.body.id}`)).toBeDefined();
    expect(await api.db('sms_messages').where({ lead_id: again.body.id }).first()).toBeUndefined();
    expect(await api.db('download_tokens').where({ lead_id: again.body.id }).first()).toBeUndefined();
    expect(await api.deps.queues.queue('sms').getJob(`lead-${again.body.id}`)).toBeUndefined();
    expect(await api.db('sms_messages').where({ lead_id: first.body.id }).count({ n: '*' }).first()).toEqual({ n: 1 });

    // Once the window is over, the phone may ask again and gets its SMS.
    await api.db('recent_phone_requests').where({ telefono }).update({
      requested_at: api.db.raw("now() - interval '25 hours'"),
    });
    const later = await post(api, validLead({ telefono }));
    expect(later.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: later.body.id }).first('repeat_of')).toEqual({ repeat_of: null });
    expect(await api.db('sms_messages').where({ lead_id: later.body.id }).first()).toMatchObject({ status: 'pending' });
  });

  it('sends a repeat whose phone got the guide for another email address its own link by email, once', async () => {
    const telefono = uniqueItalianMobile();
    const first = await post(api, validLead({ telefono, email: 'primo@example.it' }));
    const again = await post(api, validLead({ telefono, nome: 'Sara', email: 'Sara.Bianchi@example.it' }));
    expect(again.status).toBe(201);
    expect(again.body.redirectTo).toBe(first.body.redirectTo);

    // Someone may have typed this visitor's number first: the SMS went to the phone with
    // the other request's link, so this one's link goes to the address it gave.
    const emails = await api.db('email_messages').where({ lead_id: again.body.id });
    expect(emails).toEqual([expect.objectContaining({ kind: 'guide-link', status: 'pending' })]);
    expect(await api.db('download_tokens').where({ lead_id: again.body.id }).first()).toBeDefined();
    expect(await api.deps.queues.queue('email').getJob(`email-${emails[0]!.id}`)).toBeDefined();
    expect(await api.db('sms_messages').where({ lead_id: again.body.id }).first()).toBeUndefined();
    expect(await api.db('email_messages').where({ lead_id: first.body.id }).first()).toBeUndefined();

    // The same address again (any case) is the same visitor: the phone has its link already.
    const same = await post(api, validLead({ telefono, email: 'PRIMO@example.it' }));
    expect(same.status).toBe(201);
    expect(await api.db('email_messages').where({ lead_id: same.body.id }).first()).toBeUndefined();
    expect(await api.db('download_tokens').where({ lead_id: same.body.id }).first()).toBeUndefined();
    // Nor does the second address get a second email for this window.
    const twice = await post(api, validLead({ telefono, email: 'sara.bianchi@example.it' }));
    expect(twice.status).toBe(201);
    expect(await api.db('email_messages').where({ lead_id: twice.body.id }).first()).toBeUndefined();
  });

  it('stores every one of many parallel requests of one phone, with one SMS between them', async () => {
    const telefono = uniqueItalianMobile();
    // Five: the default per-phone hourly budget.
    const responses = await Promise.all(Array.from({ length: 5 }, () => post(api, validLead({ telefono }))));
    expect(responses.map((r) => r.status)).toEqual(Array(5).fill(201));
    const ids = responses.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(5);
    expect(await api.db('ebook_requests').where({ telefono }).count({ n: '*' }).first()).toEqual({ n: 5 });
    expect(await api.db('sms_messages').whereIn('lead_id', ids).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('refuses a filled-in honeypot and stores nothing', async () => {
    const telefono = uniqueItalianMobile();
    const response = await post(api, validLead({ telefono, website: 'http://spam.example' }));
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(apiMessages.honeypot);
    expect(await api.db('ebook_requests').where({ telefono }).first()).toBeUndefined();
  });

  it('refuses an oversized body with 413', async () => {
    const response = await post(api, validLead({ nome: 'x'.repeat(20_000) }));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: apiMessages.payloadTooLarge });
  });

  it('refuses malformed JSON and unsupported content types in Italian', async () => {
    const malformed = await request(api.app)
      .post('/api/ebook-request')
      .set('Content-Type', 'application/json')
      .send('{"nome": "Mario",');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: apiMessages.invalidJson });

    const text = await request(api.app).post('/api/ebook-request').set('Content-Type', 'text/plain').send('ciao');
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: apiMessages.unsupportedContentType });

    const array = await post(api, [validLead()]);
    expect(array.status).toBe(400);
  });

  it('accepts a plain form post and redirects to the thank-you page with 303', async () => {
    const telefono = '079 555 01 03';
    const response = await request(api.app)
      .post('/api/ebook-request')
      .type('form')
      .set('Accept', 'text/html')
      .send({ nome: 'Luca', cognome: 'Bianchi', email: 'luca@example.ch', telefono, gdprConsent: 'on', landingPath: '/' });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/grazie-svizzera');
    expect(await api.db('ebook_requests').where({ telefono: '+41795550103' }).first()).toMatchObject({
      gdpr_consent: true,
      country: 'CH',
    });
  });

  it('takes the campaign of a plain form post from its page (the Referer), not of a JSON post, without its click id', async () => {
    const referer =
      'http://127.0.0.1/educazione-investimenti?utm_source=partner&utm_campaign=inverno&utm_content=%3Cb%3E&gclid=Cj0KCQ-form';
    const form = await request(api.app)
      .post('/api/ebook-request')
      .type('form')
      .set('Host', '127.0.0.1')
      .set('Referer', referer)
      .send({ nome: 'Ada', cognome: 'Riva', email: 'ada@example.it', telefono: uniqueItalianMobile(), gdprConsent: 'on' });
    expect(form.status).toBe(303);
    const formLead = await api.db('ebook_requests').orderBy('id', 'desc').first();
    // A value of the page's address that breaks its rule is left out; the lead is kept. Its
    // visitor made no cookie choice (the banner needs JavaScript): no click id (decision 049).
    expect(formLead).toMatchObject({
      landing_path: '/educazione-investimenti',
      utm_source: 'partner',
      utm_campaign: 'inverno',
      utm_content: null,
      gclid: null,
      first_utm_source: 'partner',
      first_gclid: null,
      ad_user_data: 'denied',
      ad_personalization: 'denied',
    });
    // An unticked checkbox is not sent at all: no marketing consent.
    expect(formLead).toMatchObject({ marketing_consent: false, marketing_consent_version: null });
    expect(await api.db('gdpr_consents').where({ lead_id: formLead.id }).pluck('consent_type')).toEqual(['privacy']);

    const json = await post(api, { nome: 'Ada', cognome: 'Riva', email: 'ada@example.it', telefono: uniqueItalianMobile(), gdprConsent: true })
      .set('Host', '127.0.0.1')
      .set('Referer', referer);
    const jsonLead = await api.db('ebook_requests').where({ id: json.body.id }).first();
    expect(jsonLead).toMatchObject({ landing_path: '/educazione-investimenti', utm_source: 'direct' });
  });

  it('stores the first and last touch of the visit, and refuses hostile campaign values in Italian', async () => {
    // Click ids are kept with a marketing cookie consent recorded for the visitor (decision 049).
    const cookieConsentSessionId = await cookieChoice(api, true);
    const response = await post(api, {
      ...validLead({ telefono: uniqueItalianMobile() }),
      cookieConsentSessionId,
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'Autunno – 2026',
      utmTerm: 'guida finanza',
      utmContent: 'annuncio-b',
      gclid: 'Cj0KCQiA_abc-123',
      gbraid: '0AAAAAo',
      wbraid: 'CjkKCQ',
      msclkid: '3f2a9c',
      ttclid: 'E.C.P.xyz',
      referrerHost: 'www.google.com',
      firstTouch: { utmSource: 'facebook', utmMedium: 'social', fbclid: 'IwAR0first', referrerHost: 'l.facebook.com' },
    });
    expect(response.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: response.body.id }).first()).toMatchObject({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'Autunno – 2026',
      utm_term: 'guida finanza',
      utm_content: 'annuncio-b',
      gclid: 'Cj0KCQiA_abc-123',
      gbraid: '0AAAAAo',
      wbraid: 'CjkKCQ',
      fbclid: null,
      msclkid: '3f2a9c',
      ttclid: 'E.C.P.xyz',
      referrer_host: 'www.google.com',
      first_utm_source: 'facebook',
      first_utm_medium: 'social',
      first_utm_campaign: null,
      first_fbclid: 'IwAR0first',
      first_gclid: null,
      first_referrer_host: 'l.facebook.com',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    });

    const before = await api.db('ebook_requests').count({ count: '*' }).first();
    for (const hostile of [
      { utmCampaign: 'Scarica qui: <a href="https://evil.example">guida</a>' },
      { utmSource: 'x'.repeat(151) },
      { gclid: 'abc\u0000def' },
      { referrerHost: 'evil.example/phish?x=1' },
      { firstTouch: { fbclid: 'a b c' } },
      { firstTouch: 'google' },
    ]) {
      const refused = await post(api, { ...validLead({ telefono: uniqueItalianMobile() }), ...hostile });
      expect(refused.status, JSON.stringify(hostile)).toBe(400);
      expect(refused.body.message).toMatch(/[a-zà-ù]/);
      expect(Object.values(refused.body.errors ?? {})).toContainEqual(
        expect.stringMatching(new RegExp(`^(${validationMessages.campaign}|${validationMessages.controlCharacters})$`)),
      );
    }
    expect(await api.db('ebook_requests').count({ count: '*' }).first()).toEqual(before);
  });

  it('takes a ticked marketing checkbox of a plain form post as the marketing consent', async () => {
    const telefono = uniqueItalianMobile();
    const response = await request(api.app)
      .post('/api/ebook-request')
      .type('form')
      .send({ nome: 'Rita', cognome: 'Sala', email: 'rita@example.it', telefono, gdprConsent: 'on', marketingConsent: 'on' });
    expect(response.status).toBe(303);
    const lead = await api.db('ebook_requests').where({ telefono }).first();
    expect(lead).toMatchObject({ marketing_consent: true, marketing_consent_version: MARKETING_CONSENT_VERSION });
    const consents = await api.db('gdpr_consents').where({ lead_id: lead.id }).orderBy('consent_type');
    expect(consents.map((c) => [c.consent_type, c.consent_version, c.consent_text_hash])).toEqual([
      ['marketing', MARKETING_CONSENT_VERSION, sha256(marketingConsentText)],
      ['privacy', PRIVACY_CONSENT_VERSION, sha256(privacyConsentText)],
    ]);
  });

  it('shows an Italian error page for an invalid plain form post', async () => {
    const response = await request(api.app)
      .post('/api/ebook-request')
      .type('form')
      .set('Accept', 'text/html,application/xhtml+xml')
      .set('Referer', 'http://127.0.0.1/educazione-investimenti')
      .set('Host', '127.0.0.1')
      .send({ nome: 'L', cognome: 'Bianchi', email: 'luca@example.it', telefono: uniqueItalianMobile() });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.text).toContain('<html lang="it">');
    expect(response.text).toContain(validationMessages.nome);
    expect(response.text).toContain('È necessario accettare il trattamento dei dati personali per procedere');
    expect(response.text).toContain('href="/educazione-investimenti"');
  });
});

describe('ad data only with consent (decision 049)', () => {
  let api: TestApi;
  beforeAll(async () => {
    // Many leads from one loopback address.
    api = await createTestApi({ LEAD_RATE_LIMIT_PER_IP: '10000' });
  });
  afterAll(async () => {
    await api.close();
  });
  const clickIds = { gclid: 'Cj0KCQ-last', gbraid: '0AAAAAo', wbraid: 'CjkKCQ', fbclid: 'IwAR0last', msclkid: '3f2a9c', ttclid: 'E.C.P.xyz' };
  const firstClickIds = { gclid: 'Cj0KCQ-first', fbclid: 'IwAR0first', ttclid: 'E.C.P.first' };
  const NO_CLICK_ID = Object.fromEntries(
    Object.keys(clickIds).flatMap((column) => [
      [column, null],
      [`first_${column}`, null],
    ]),
  );
  const DENIED = { ad_user_data: 'denied', ad_personalization: 'denied' };
  /** A lead as the page's script sends it, with click ids in both touches. */
  const sendLead = async (extra: Record<string, unknown> = {}) => {
    const response = await post(api, {
      ...validLead({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'inverno' }),
      ...clickIds,
      referrerHost: 'www.google.com',
      firstTouch: { utmSource: 'facebook', referrerHost: 'l.facebook.com', ...firstClickIds },
      ...extra,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return api.db('ebook_requests').where({ id: response.body.id }).first();
  };

  it('keeps no click id of a lead without a recorded cookie choice, but its campaign and referrer, and records the ad consent denied', async () => {
    const lead = await sendLead();
    expect(lead).toMatchObject({
      ...NO_CLICK_ID,
      ...DENIED,
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'inverno',
      referrer_host: 'www.google.com',
      first_utm_source: 'facebook',
      first_referrer_host: 'l.facebook.com',
    });
  });

  it('keeps every click id of both touches, and records the ad consent granted, with a marketing choice recorded for the visitor', async () => {
    const lead = await sendLead({ cookieConsentSessionId: await cookieChoice(api, true) });
    expect(lead).toMatchObject({
      ...clickIds,
      first_gclid: 'Cj0KCQ-first',
      first_fbclid: 'IwAR0first',
      first_ttclid: 'E.C.P.first',
      utm_source: 'google',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    });
  });

  it('believes the server’s record, not the browser: a refusal, a withdrawal, an unknown or an expired id keep no click id', async () => {
    const refused = await cookieChoice(api, false);
    // Accepted, then withdrawn from the banner's settings: the latest choice counts.
    const withdrawn = await cookieChoice(api, false, await cookieChoice(api, true));
    // A well-formed id nobody recorded: what a forged one is, unless its sender records it.
    const unknown = newSessionId();
    // Accepted seven months ago: a choice holds six months (Garante 2021).
    const expired = newSessionId();
    await api.db('cookie_consents').insert({
      session_id: expired,
      marketing: true,
      consent_timestamp: api.db.raw("now() - interval '7 months'"),
    });
    for (const [name, cookieConsentSessionId] of Object.entries({ refused, withdrawn, unknown, expired })) {
      expect(await sendLead({ cookieConsentSessionId }), name).toMatchObject({ ...NO_CLICK_ID, ...DENIED, utm_source: 'google' });
    }
  });

  it('refuses a malformed cookie session id in Italian and stores nothing', async () => {
    const before = await api.db('ebook_requests').count({ n: '*' }).first();
    for (const cookieConsentSessionId of ['corto', 'V1StGXR8 Z5jdHi6B-myT', "' OR true --x-x-x-x-x-x", 42, { marketing: true }]) {
      const response = await post(api, { ...validLead(), ...clickIds, cookieConsentSessionId });
      expect(response.status, JSON.stringify(cookieConsentSessionId)).toBe(400);
      expect(response.body.errors).toEqual({ cookieConsentSessionId: analyticsMessages.sessionId });
    }
    expect(await api.db('ebook_requests').count({ n: '*' }).first()).toEqual(before);
  });

  it('keeps no click id of a form sent without JavaScript, even one naming an accepted choice', async () => {
    const telefono = uniqueItalianMobile();
    const response = await request(api.app)
      .post('/api/ebook-request')
      .type('form')
      .set('Host', '127.0.0.1')
      .set('Referer', 'http://127.0.0.1/?utm_source=google&gclid=Cj0KCQ-nojs&fbclid=IwAR0nojs')
      .send({
        nome: 'Ada',
        cognome: 'Riva',
        email: 'ada@example.it',
        telefono,
        gdprConsent: 'on',
        gclid: 'Cj0KCQ-field',
        cookieConsentSessionId: await cookieChoice(api, true),
      });
    expect(response.status).toBe(303);
    expect(await api.db('ebook_requests').where({ telefono }).first()).toMatchObject({ ...NO_CLICK_ID, ...DENIED, utm_source: 'google' });
  });
});

describe('rate limits', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ LEAD_RATE_LIMIT_PER_IP: '3', LEAD_RATE_LIMIT_PER_PHONE: '2' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers 429 with Retry-After once an address spent its hourly budget', async () => {
    const ip = '203.0.113.7';
    // TRUST_PROXY defaults to loopback: supertest is loopback, so X-Forwarded-For is believed.
    for (let i = 0; i < 3; i += 1) {
      expect((await post(api, validLead()).set('X-Forwarded-For', ip)).status).toBe(201);
    }
    const limited = await post(api, validLead()).set('X-Forwarded-For', ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: apiMessages.tooManyRequests });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    // Another address is not affected.
    expect((await post(api, validLead()).set('X-Forwarded-For', '203.0.113.8')).status).toBe(201);
  });

  it('answers 429 once a phone number spent its hourly budget', async () => {
    const telefono = uniqueItalianMobile();
    const from = (n: number) => ({ 'X-Forwarded-For': `198.51.100.${n}` });
    expect((await post(api, validLead({ telefono })).set(from(1))).status).toBe(201);
    expect((await post(api, validLead({ telefono })).set(from(2))).status).toBe(201);
    const limited = await post(api, validLead({ telefono })).set(from(3));
    expect(limited.status).toBe(429);
  });
});

describe('when a backing service is down', () => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('answers 503 in Italian when PostgreSQL is unreachable', async () => {
    const deadPort = await freePort();
    api = await createTestApi({ DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/guida` });
    const response = await post(api, validLead());
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ message: apiMessages.serviceUnavailable });
  });

  it('still stores and confirms the lead when Redis is unreachable', async () => {
    const deadPort = await freePort();
    api = await createTestApi({ REDIS_URL: `redis://127.0.0.1:${deadPort}` });
    const started = Date.now();
    const response = await post(api, validLead());
    expect(response.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await api.db('sms_messages').where({ lead_id: response.body.id }).first()).toMatchObject({
      status: 'pending',
    });
  });
});

describe('logs', () => {
  it('carry a request id and the lead id, never personal data', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const api = await createTestApi({}, { logger: pino({ level: 'info' }, sink) });
    try {
      const lead = validLead({ nome: 'Ottavio', cognome: 'Zanetti', email: 'ottavio.zanetti@example.it' });
      const response = await post(api, lead).set('X-Request-Id', 'req-test-12345');
      expect(response.status).toBe(201);
      expect(response.headers['x-request-id']).toBe('req-test-12345');

      const log = lines.join('');
      expect(log).toContain('req-test-12345');
      expect(log).toContain(`"leadId":${response.body.id}`);
      for (const personal of ['Ottavio', 'Zanetti', 'ottavio.zanetti', lead.telefono, lead.telefono.slice(3)]) {
        expect(log).not.toContain(personal);
      }
    } finally {
      await api.close();
    }
  });
});
