import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETING_CONSENT_VERSION } from '@guida/shared/lead-rules';
import { apiMessages } from '@guida/shared/messages';
import { marketingWithdrawalPages as pages } from '@guida/shared/marketing-withdrawal';
import { contactHashesOf } from '@guida/shared/server/marketing-suppression';
import { keyWithdrawalLink, withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';
import { emailHash } from '@guida/shared/server/personal-data-hash';
import { TEST_LINK_TOKEN_SECRET, insertLead } from '@guida/testing/lead-fixture';
import { createTestApi, type TestApi } from '../testing/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({ WITHDRAWAL_RATE_LIMIT_PER_IP: '1000' });
});
afterAll(async () => {
  await api.close();
});

let counter = 0;
const unique = () => `${Date.now()}${(counter += 1)}`;
const uniquePhone = () => `+39346${unique().slice(-7)}`;

/** A lead as stored, with the withdrawal link the worker keys when it emails the lead. */
async function leadWithLink(overrides: Record<string, unknown> = {}, retentionMonths = 24) {
  const lead = await insertLead(api.db, { email: `persona.${unique()}@example.it`, telefono: uniquePhone(), ...overrides });
  const { token, hash } = withdrawalLinkToken(TEST_LINK_TOKEN_SECRET, lead.leadId);
  await keyWithdrawalLink(api.db, lead.leadId, hash, retentionMonths);
  const stored = await api.db('ebook_requests').where({ id: lead.leadId }).first();
  return { ...lead, email: stored.email as string, link: `/revoca-marketing/${token}` };
}

const suppressionsOf = (contact: { email: string; telefono: string }) => {
  const hashes = contactHashesOf(api.config.SUPPRESSION_HASH_SECRET, contact);
  return api.db('marketing_suppressions').whereIn('contact_hash', [hashes.email, hashes.phone]).orderBy('contact_kind');
};
const withdrawalEvents = (leadId: number) => api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.consent_withdrawn' });
const marketingConsents = (leadId: number) =>
  api.db('gdpr_consents').where({ lead_id: leadId, consent_type: 'marketing' }).orderBy('id');

/** As the pages write text (api/src/http/html-page.ts). */
const escaped = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Our Italian page, with this status, saying `text`. */
function expectPage(response: request.Response, status: number, text: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.text).toContain('<html lang="it">');
  expect(response.text).toContain(escaped(text));
}

describe('GET /revoca-marketing/:token', () => {
  it('shows what the link does and one button, and changes nothing (mail scanners open every link)', async () => {
    const lead = await leadWithLink({ marketing_consent: true, marketing_consent_version: '1.0' });
    for (const userAgent of ['Mozilla/5.0', 'Microsoft Office Protocol Discovery', 'Barracuda Sentinel (EE)']) {
      const page = await request(api.app).get(lead.link).set('User-Agent', userAgent);
      expectPage(page, 200, pages.confirmTitle);
      expect(page.text).toContain(`<form method="post" action="${lead.link}"><button type="submit">${pages.confirmButton}</button></form>`);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(page.headers['cache-control']).toBe('no-store');
    }
    expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeNull();
    expect(await suppressionsOf(lead)).toEqual([]);
    expect(await withdrawalEvents(lead.leadId)).toEqual([]);
  });
});

describe('POST /revoca-marketing/:token', () => {
  it('withdraws: the consent proof stays and a "marketing: false" row follows, both contacts are suppressed, the CRM gets one event', async () => {
    const lead = await leadWithLink({ marketing_consent: true, marketing_consent_version: '1.0' });
    await api.db('gdpr_consents').insert({
      lead_id: lead.leadId,
      email: lead.email,
      email_hash: emailHash(lead.email),
      consent_type: 'marketing',
      consented: true,
      consent_version: '1.0',
      consent_text_hash: 'a'.repeat(64),
      ip_address: '203.0.113.0',
      user_agent: 'Mozilla/5.0 (form)',
    });

    const withdrawn = await request(api.app)
      .post(lead.link)
      .set('X-Forwarded-For', '198.51.100.77')
      .set('User-Agent', 'Mozilla/5.0 (button)')
      .type('form')
      .send({});
    expectPage(withdrawn, 200, pages.withdrawnTitle);
    expect(withdrawn.text).toContain(pages.withdrawnText);

    const stored = await api.db('ebook_requests').where({ id: lead.leadId }).first();
    // The consent the visitor gave stays as given; the withdrawal is a fact of its own.
    expect(stored).toMatchObject({ marketing_consent: true, marketing_consent_version: '1.0' });
    expect(stored.marketing_consent_withdrawn_at).toBeInstanceOf(Date);
    const consents = await marketingConsents(lead.leadId);
    expect(consents.map((row) => [row.consented, row.consent_version, row.consent_text_hash])).toEqual([
      [true, '1.0', 'a'.repeat(64)],
      [false, '1.0', null],
    ]);
    expect(consents[1]).toMatchObject({
      email: lead.email,
      email_hash: emailHash(lead.email),
      ip_address: '198.51.100.0',
      user_agent: 'Mozilla/5.0 (button)',
    });

    const suppressions = await suppressionsOf(lead);
    expect(suppressions.map((row) => [row.contact_kind, row.source])).toEqual([
      ['email', 'email'],
      ['phone', 'email'],
    ]);
    // Keyed hashes only: neither the address nor the number, nor their plain SHA-256.
    const text = JSON.stringify(await api.db('marketing_suppressions'));
    expect(text).not.toContain(lead.email);
    expect(text).not.toContain(lead.telefono.slice(1));
    expect(text).not.toContain(emailHash(lead.email));

    const events = await withdrawalEvents(lead.leadId);
    expect(events).toEqual([expect.objectContaining({ status: 'pending', subject_lead_id: lead.leadId })]);
    const job = await api.deps.queues.queue('crm').getJob(`lead-${lead.leadId}-lead-consent_withdrawn-${events[0]!.id}`);
    expect(job?.data).toEqual({ deliveryId: events[0]!.id, leadId: lead.leadId, event: 'lead.consent_withdrawn' });
  });

  it('says it is already withdrawn on a second click, and changes nothing more', async () => {
    const lead = await leadWithLink({ marketing_consent: true, marketing_consent_version: '1.0' });
    expectPage(await request(api.app).post(lead.link), 200, pages.withdrawnTitle);
    const [suppressedAt] = (await suppressionsOf(lead)).map((row) => row.suppressed_at.getTime());

    for (const again of [request(api.app).post(lead.link), request(api.app).get(lead.link)]) {
      const page = await again;
      expectPage(page, 200, pages.alreadyTitle);
      expect(page.text).toContain(pages.alreadyText);
      expect(page.text).not.toContain('<form');
    }
    expect(await marketingConsents(lead.leadId)).toHaveLength(1);
    expect(await withdrawalEvents(lead.leadId)).toHaveLength(1);
    expect((await suppressionsOf(lead)).map((row) => row.suppressed_at.getTime())).toEqual([suppressedAt, suppressedAt]);
  });

  it('takes the RFC 8058 one-click POST of a mail client, as form or multipart, with no page needed', async () => {
    for (const send of [
      (link: string) => request(api.app).post(link).type('form').send('List-Unsubscribe=One-Click'),
      (link: string) => request(api.app).post(link).field('List-Unsubscribe', 'One-Click'),
      // A webmail posting from its own page: the token is the only authority.
      (link: string) => request(api.app).post(link).set('Sec-Fetch-Site', 'cross-site').set('Origin', 'https://mail.example.com').send(''),
    ]) {
      const lead = await leadWithLink();
      const answer = await send(lead.link);
      expect(answer.status).toBe(200);
      expect(answer.headers.location).toBeUndefined();
      expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeInstanceOf(Date);
      expect(await suppressionsOf(lead)).toHaveLength(2);
      expect(await withdrawalEvents(lead.leadId)).toHaveLength(1);
    }
  });

  it('withdraws for every request of the person: the same address or the same number', async () => {
    const email = `famiglia.${unique()}@example.it`;
    const telefono = uniquePhone();
    const first = await leadWithLink({ email, telefono, marketing_consent: true, marketing_consent_version: '1.0' });
    const sameEmail = await insertLead(api.db, { email, telefono: uniquePhone() });
    const samePhone = await insertLead(api.db, { email: `altro.${unique()}@example.it`, telefono });
    const stranger = await insertLead(api.db, { email: `estraneo.${unique()}@example.it`, telefono: uniquePhone() });

    expectPage(await request(api.app).post(first.link), 200, pages.withdrawnTitle);
    const withdrawn = await api.db('ebook_requests')
      .whereIn('id', [first.leadId, sameEmail.leadId, samePhone.leadId, stranger.leadId])
      .orderBy('id')
      .select('id', 'marketing_consent_withdrawn_at');
    expect(withdrawn.map((row) => [row.id, row.marketing_consent_withdrawn_at !== null])).toEqual([
      [first.leadId, true],
      [sameEmail.leadId, true],
      [samePhone.leadId, true],
      [stranger.leadId, false],
    ]);
    // A lead that never gave the consent refuses the current text.
    expect((await marketingConsents(sameEmail.leadId)).map((row) => [row.consented, row.consent_version])).toEqual([
      [false, MARKETING_CONSENT_VERSION],
    ]);
    for (const lead of [first, sameEmail, samePhone]) expect(await withdrawalEvents(lead.leadId)).toHaveLength(1);
    expect(await withdrawalEvents(stranger.leadId)).toHaveLength(0);
    // The contacts of every lead withdrawn are on the list, the other number of the same email too.
    const samePhoneRow = await api.db('ebook_requests').where({ id: samePhone.leadId }).first();
    expect(await suppressionsOf({ email: samePhoneRow.email, telefono: sameEmail.telefono })).toHaveLength(2);
  });
});

describe('an address stored in another case', () => {
  it('is suppressed in its normal form, so the same mailbox in any case is recognised', async () => {
    const lead = await leadWithLink({ email: `Maiuscole.${unique()}@Example.IT` });
    expectPage(await request(api.app).post(lead.link), 200, pages.withdrawnTitle);
    expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeInstanceOf(Date);
    expect(await suppressionsOf({ email: lead.email.toLowerCase(), telefono: lead.telefono })).toHaveLength(2);
    expectPage(await request(api.app).get(lead.link), 200, pages.alreadyTitle);
  });
});

describe('links that do not work', () => {
  it('answers a forged, truncated, altered or unknown token with the Italian 404 page, never a 5xx', async () => {
    const lead = await leadWithLink();
    const token = lead.link.split('/').pop()!;
    const forged = withdrawalLinkToken('another-secret-another-secret-0123', lead.leadId).token;
    const guideToken = lead.token;
    for (const bad of [forged, token.slice(0, 21), `${token}A`, token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), guideToken, '%00', 'x'.repeat(500), '..%2F..%2Fetc', '%E0%A4%A']) {
      for (const method of ['get', 'post'] as const) {
        const answer = await request(api.app)[method](`/revoca-marketing/${bad}`);
        expect(answer.status, `${method} ${bad}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${bad}`).toBeLessThan(500);
        if (bad === '%E0%A4%A') {
          // Not even a path: express refuses to decode it, as for every other route.
          expect(answer.body).toEqual({ message: apiMessages.invalidRequest });
        } else {
          expectPage(answer, 404, pages.invalidTitle);
        }
      }
    }
    expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeNull();
  });

  it('answers an expired link (past the retention period) with the Italian 410 page, withdrawing nothing', async () => {
    const lead = await leadWithLink({ created_at: api.db.raw("now() - interval '25 months'") });
    const stored = await api.db('marketing_withdrawal_links').where({ lead_id: lead.leadId }).first();
    expect(stored.expires_at.getTime()).toBeLessThan(Date.now());
    for (const method of ['get', 'post'] as const) {
      const answer = await request(api.app)[method](lead.link);
      expectPage(answer, 410, pages.expiredTitle);
    }
    expect((await api.db('ebook_requests').where({ id: lead.leadId }).first()).marketing_consent_withdrawn_at).toBeNull();
    expect(await suppressionsOf(lead)).toEqual([]);
  });

  it('limits the requests of one client, with an Italian 429 page', async () => {
    const limited = await createTestApi({ WITHDRAWAL_RATE_LIMIT_PER_IP: '3' });
    try {
      const lead = await insertLead(limited.db, { email: `limite.${unique()}@example.it`, telefono: uniquePhone() });
      const { token, hash } = withdrawalLinkToken(TEST_LINK_TOKEN_SECRET, lead.leadId);
      await keyWithdrawalLink(limited.db, lead.leadId, hash, 24);
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await request(limited.app).get(`/revoca-marketing/${token}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await request(limited.app).post(`/revoca-marketing/${token}`);
      expectPage(refused, 429, pages.tooManyTitle);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another client is not held back.
      expect((await request(limited.app).get(`/revoca-marketing/${token}`).set('X-Forwarded-For', '203.0.113.9')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
