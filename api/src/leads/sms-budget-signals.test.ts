import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetAddressDigest } from '@guida/shared/deliveries/sms-budget';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../testing/test-api';

/**
 * What a lead's SMS is counted by besides its number (decision 052), through the real
 * routes, PostgreSQL and Redis: whether the client was seen on the site (an analytics
 * request) before the form, its address's keyed digest, and its network as the lead
 * stores it.
 */
let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

const visit = (ip: string) =>
  request(api.app)
    .post('/api/analytics/batch')
    .set('X-Forwarded-For', ip)
    .send({ events: [{ type: 'page-view', sessionId: 'sessione-di-prova-0052', path: '/' }] });
const postLead = (ip: string) =>
  request(api.app)
    .post('/api/ebook-request')
    .set('X-Forwarded-For', ip)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(validLead({ telefono: uniqueItalianMobile() })));
async function smsOf(leadId: number) {
  const lead = await api.db('ebook_requests').where({ id: leadId }).first<{ ip_address: string | null }>('ip_address');
  const sms = await api.db('sms_messages').where({ lead_id: leadId }).first<{ trusted: boolean; budget_address: string | null }>('trusted', 'budget_address');
  return { network: lead!.ip_address, ...sms! };
}

describe('the SMS budget signals of a lead', () => {
  it('trusts a lead whose client opened a page of the site before the form', async () => {
    expect((await visit('198.51.100.23')).status).toBe(202);
    const response = await postLead('198.51.100.23');
    expect(response.status).toBe(201);
    expect(await smsOf(response.body.id as number)).toEqual({
      network: '198.51.100.0',
      trusted: true,
      budget_address: budgetAddressDigest(api.config.SESSION_SECRET)('198.51.100.23'),
    });
  });

  it('does not trust a form posted without a visit, even from the visitor’s network', async () => {
    const response = await postLead('198.51.100.24');
    expect(response.status).toBe(201);
    expect(await smsOf(response.body.id as number)).toEqual({
      network: '198.51.100.0',
      trusted: false,
      budget_address: budgetAddressDigest(api.config.SESSION_SECRET)('198.51.100.24'),
    });
  });

  it('counts an IPv6 client by its /64: a visit from one address trusts the form from another of the /64', async () => {
    expect((await visit('2001:db8:77:1::1')).status).toBe(202);
    const response = await postLead('2001:db8:77:1::ffff');
    expect(await smsOf(response.body.id as number)).toEqual({
      network: '2001:db8:77::',
      trusted: true,
      budget_address: budgetAddressDigest(api.config.SESSION_SECRET)('2001:db8:77:1::/64'),
    });
    // Another /64 of the same /48 was not seen.
    const neighbour = await postLead('2001:db8:77:2::1');
    expect((await smsOf(neighbour.body.id as number)).trusted).toBe(false);
  });

  it('keeps the address as a digest only, under a key of its own', async () => {
    const digest = budgetAddressDigest(api.config.SESSION_SECRET)('198.51.100.23');
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(budgetAddressDigest('another-secret-0123456789abcdef0123')('198.51.100.23')).not.toBe(digest);
  });
});
