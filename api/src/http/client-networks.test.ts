import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { analyticsMessages, apiMessages } from '@guida/shared/messages';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

/**
 * Every per-client limit of the public intake counts the client's network too (decision
 * 053): an IPv6 /48 with RATE_LIMIT_IPV6_48_FACTOR times a /64's allowance, an IPv4 /24
 * with RATE_LIMIT_IPV4_24_FACTOR times an address's.
 */

const session = 'V1StGXR8_Z5jdHi6B-myT';
/** The n-th /64 of the /48 2001:db8:<net>::/48 (an address of its own in it). */
const ipv6In48 = (net: number, n: number) => `2001:db8:${net.toString(16)}:${n.toString(16)}::${(n + 1).toString(16)}`;
/** The n-th address of the /24 198.18.<net>.0/24. */
const ipv4In24 = (net: number, n: number) => `198.18.${net}.${n + 1}`;

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const postLead = (app: TestApi['app'], ip: string) => request(app).post('/api/ebook-request').set('X-Forwarded-For', ip).send(validLead());

describe('the network keys of the lead intake, on their default factors', () => {
  it('makes 40 addresses of one IPv6 /48, each in its own /64, share the /48 budget (16 × a /64)', async () => {
    api = await createTestApi({ LEAD_RATE_LIMIT_PER_IP: '2' });
    const statuses: number[] = [];
    for (let n = 0; n < 40; n += 1) statuses.push((await postLead(api.app, ipv6In48(0xa1, n))).status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(32);
    expect(statuses.slice(32)).toEqual(Array(8).fill(429));
    const refused = await postLead(api.app, ipv6In48(0xa1, 41));
    expect(refused.body).toEqual({ message: apiMessages.tooManyRequests });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another /48 is another site.
    expect((await postLead(api.app, ipv6In48(0xa2, 0))).status).toBe(201);
    expect(Number((await api.db('ebook_requests').count({ n: '*' }).first())?.n)).toBe(33);
  });

  it('holds an IPv4 /24 at its higher allowance (32 × an address), carriers\' NAT in mind', async () => {
    api = await createTestApi({ LEAD_RATE_LIMIT_PER_IP: '1' });
    const statuses: number[] = [];
    for (let n = 0; n < 40; n += 1) statuses.push((await postLead(api.app, ipv4In24(1, n))).status);
    expect(statuses.slice(0, 32)).toEqual(Array(32).fill(201));
    expect(statuses.slice(32)).toEqual(Array(8).fill(429));
    expect((await postLead(api.app, ipv4In24(2, 0))).status).toBe(201);
  });

  it('does not let one address spend its neighbours\' budget with requests it was refused', async () => {
    api = await createTestApi({ LEAD_RATE_LIMIT_PER_IP: '1' });
    const flood = [];
    for (let n = 0; n < 10; n += 1) flood.push((await postLead(api.app, ipv4In24(3, 0))).status);
    expect(flood).toEqual([201, ...Array(9).fill(429)]);
    // The /24 was charged once for it: 31 other phones behind the carrier still get through.
    for (let n = 1; n < 32; n += 1) expect((await postLead(api.app, ipv4In24(3, n))).status, `address ${n}`).toBe(201);
    expect((await postLead(api.app, ipv4In24(3, 32))).status).toBe(429);
  });
});

interface Limit {
  name: string;
  env: Record<string, string>;
  /** Requests one client may make. */
  allowance: number;
  send(app: TestApi['app'], ip: string, n: number): request.Test;
}

const LIMITS: Limit[] = [
  {
    name: 'data-rights requests',
    env: { GDPR_RATE_LIMIT_PER_IP: '2' },
    allowance: 2,
    send: (app, ip, n) => request(app).post('/api/gdpr/requests').set('X-Forwarded-For', ip).send({ email: `rete.${n}@example.it`, requestType: 'access' }),
  },
  {
    name: 'analytics requests',
    env: { ANALYTICS_RATE_LIMIT_PER_IP: '2' },
    allowance: 2,
    send: (app, ip) => request(app).post('/api/analytics/page-view').set('X-Forwarded-For', ip).send({ sessionId: session, path: '/' }),
  },
  {
    name: 'cookie consent records',
    env: {},
    allowance: 120,
    send: (app, ip) =>
      request(app).post('/api/cookie-consent').set('X-Forwarded-For', ip).send({ sessionId: session, analytics: true, marketing: false, preferences: false }),
  },
  {
    name: 'live figures',
    env: { LIVE_STATS_RATE_LIMIT_PER_IP: '2' },
    allowance: 2,
    send: (app, ip) => request(app).get('/api/live-stats?path=/').set('X-Forwarded-For', ip),
  },
  {
    name: 'marketing withdrawal links',
    env: { WITHDRAWAL_RATE_LIMIT_PER_IP: '2' },
    allowance: 2,
    send: (app, ip) => request(app).get('/revoca-marketing/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').set('X-Forwarded-For', ip),
  },
];

describe('every per-client limit of the public intake', () => {
  // Factor 1: a network may make what one client may, so the network is what refuses.
  const oneClientPerNetwork = { RATE_LIMIT_IPV6_48_FACTOR: '1', RATE_LIMIT_IPV4_24_FACTOR: '1' };

  it.each(LIMITS)('counts the /48 and the /24 for $name', async (limit) => {
    api = await createTestApi({ ...oneClientPerNetwork, ...limit.env });
    const app = api.app;
    let n = 0;
    for (const [family, address] of [['IPv6 /48', ipv6In48], ['IPv4 /24', ipv4In24]] as const) {
      // One request from each of `allowance` clients of one network: none over its own limit.
      for (let client = 0; client < limit.allowance; client += 1) {
        expect((await limit.send(app, address(7, client), (n += 1))).status, `${family}, client ${client}`).toBeLessThan(429);
      }
      expect((await limit.send(app, address(7, limit.allowance), (n += 1))).status, family).toBe(429);
      expect((await limit.send(app, address(8, 0), (n += 1))).status, `${family}, another network`).toBeLessThan(429);
    }
  });

  it('counts the /48 for the analytics byte budget', async () => {
    api = await createTestApi({ ...oneClientPerNetwork, ANALYTICS_DAILY_MB_PER_CLIENT: '1' });
    const app = api.app;
    // About 40 KB a batch: 1 MB is spent after some 26 batches.
    const events = Array.from({ length: 100 }, () => ({ type: 'section-view', sessionId: session, section: 'x'.repeat(50), timeSpent: 1, path: `/${'p'.repeat(250)}` }));
    const send = (ip: string) => request(app).post('/api/analytics/batch').set('X-Forwarded-For', ip).send({ events });
    let accepted = 0;
    // Spread over /64s of one /48, one batch each: each /64 is far below its own megabyte.
    for (let client = 0; client < 40; client += 1) {
      const response = await send(ipv6In48(9, client));
      if (response.status !== 202) {
        expect(response.status).toBe(429);
        expect(response.body.message).toBe(analyticsMessages.dailyBudgetExceeded);
        break;
      }
      accepted += 1;
    }
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(27);
    expect((await send(ipv6In48(10, 0))).status).toBe(202);
  });
});
