import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLead } from '@guida/testing/lead-fixture';
import type { LeadCost, Money } from '@guida/shared/schemas/admin-costs';
import { overviewSchema, type LeadDetail, type Overview } from '@guida/shared/schemas/admin';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';
import { overview } from './admin-overview.repo';

/** Noon in Italy on 20 November 2026: the period of 7 days runs from 14 to 20 November. */
const NOW = new Date('2026-11-20T11:00:00Z');
const DAYS = 7;

let api: TestApi;

/** A lead of `at`, its SMS as a worker and Twilio left it. */
async function lead(
  at: string,
  campaign: { utm_source: string | null; utm_campaign?: string | null },
  sms: { provider?: string; price?: string; unit?: string; fetched?: boolean; messageId?: string } = {},
  verified: { reachable?: boolean; engaged?: boolean } = {},
) {
  const { leadId } = await insertLead(api.db, {
    ...campaign,
    created_at: new Date(at),
    reachable_at: verified.reachable ? new Date(at) : null,
    engaged_at: verified.engaged ? new Date(at) : null,
  });
  await api.db('sms_messages').where({ lead_id: leadId }).update({
    status: 'delivered',
    provider: sms.provider ?? 'twilio',
    provider_message_id: sms.messageId ?? `SM${String(leadId).padStart(32, '0')}`,
    price: sms.price ?? null,
    price_unit: sms.unit ?? (sms.price ? 'EUR' : null),
    price_fetched_at: sms.fetched === false ? null : sms.price || sms.fetched ? new Date(at) : null,
  });
  return leadId;
}

let pricedLead: number;
let givenUpLead: number;

const spend = (day: string, utmSource: string, utmCampaign: string, amount: string, currency = 'EUR') =>
  api.db('ad_spend').insert({
    day,
    utm_source: utmSource,
    utm_campaign: utmCampaign,
    amount,
    currency,
    import_id: '00000000-0000-4000-8000-000000000000',
  });

beforeAll(async () => {
  api = await createTestApi();
  // 20 November: two google/autunno leads (one reachable, one engaged), one priced in USD.
  pricedLead = await lead('2026-11-20T08:00:00Z', { utm_source: 'google', utm_campaign: 'autunno' }, { price: '0.07400' }, { reachable: true });
  await lead('2026-11-20T09:00:00Z', { utm_source: 'google', utm_campaign: 'autunno' }, { price: '0.05000', unit: 'USD' }, { engaged: true });
  // 00:30 in Italy on 20 November (23:30 UTC the day before): counted on the 20th.
  await lead('2026-11-19T23:30:00Z', { utm_source: 'google', utm_campaign: 'autunno' }, { fetched: false });
  // 19 November: a google/autunno lead whose price never came, a direct one from the outbox.
  givenUpLead = await lead('2026-11-19T10:00:00Z', { utm_source: 'google', utm_campaign: 'autunno' }, { fetched: true }, { reachable: true, engaged: true });
  await lead('2026-11-19T11:00:00Z', { utm_source: 'direct', utm_campaign: null }, { provider: 'outbox', messageId: 'outbox-1' });
  await lead('2026-11-19T12:00:00Z', { utm_source: null }, { price: '0.07400' }, { reachable: true });
  // Before the period: neither it nor its spend counts.
  await lead('2026-11-10T10:00:00Z', { utm_source: 'google', utm_campaign: 'autunno' }, { price: '0.07400' }, { reachable: true });
  await spend('2026-11-10', 'google', 'autunno', '500.00');
  await spend('2026-11-19', 'google', 'autunno', '40.00');
  await spend('2026-11-20', 'google', 'autunno', '60.50');
  await spend('2026-11-20', 'google', 'autunno-usd', '10.00', 'USD');
  // Spend without leads: a campaign row with no cost per lead.
  await spend('2026-11-20', 'meta', 'autunno', '25.00');
});
afterAll(async () => {
  await api.close();
});

/**
 * The same figures computed here from the rows as read back, by another route: days by
 * Intl in Europe/Rome, sums in integer units, the costs per lead divided at the end.
 */
async function fromRows() {
  const dayOf = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(at);
  const inPeriod = (day: string) => day >= '2026-11-14' && day <= '2026-11-20';
  const leads = await api.db('ebook_requests as l')
    .join('sms_messages as s', 's.lead_id', 'l.id')
    .select('l.created_at', 'l.utm_source', 'l.utm_campaign', 'l.reachable_at', 'l.engaged_at', 's.price', 's.price_unit', 's.provider', 's.price_fetched_at');
  const spendRows = await api.db('ad_spend').select(api.db.raw(`to_char(day, 'YYYY-MM-DD') AS day`), 'utm_source', 'utm_campaign', 'amount', 'currency');

  type Sums = { leads: number; verified: number; pending: number; sms: Map<string, bigint>; spend: Map<string, bigint> };
  const groups = new Map<string, Sums>();
  const sums = (key: string) =>
    groups.get(key) ?? groups.set(key, { leads: 0, verified: 0, pending: 0, sms: new Map(), spend: new Map() }).get(key)!;
  const add = (map: Map<string, bigint>, currency: string, units: bigint) => map.set(currency, (map.get(currency) ?? 0n) + units);
  // Prices in 1/100000, spend in 1/100 of their currency.
  const units = (decimal: string, digits: number) => BigInt(decimal.replace('.', '').padEnd(decimal.indexOf('.') + digits, '0'));
  const source = (value: string | null) => (value === null || value === 'direct' ? '(direct)' : value);
  for (const row of leads) {
    const day = dayOf(row.created_at);
    if (!inPeriod(day)) continue;
    const campaign = [source(row.utm_source), row.utm_campaign ?? ''];
    for (const key of [JSON.stringify([day, ...campaign]), JSON.stringify(campaign), 'total']) {
      const group = sums(key);
      group.leads += 1;
      if (row.reachable_at || row.engaged_at) group.verified += 1;
      if (row.provider === 'twilio' && row.price_fetched_at === null) group.pending += 1;
      if (row.price !== null) add(group.sms, row.price_unit, units(row.price, 5));
    }
  }
  for (const row of spendRows) {
    if (!inPeriod(row.day)) continue;
    const campaign = [source(row.utm_source), row.utm_campaign];
    for (const key of [JSON.stringify([row.day, ...campaign]), JSON.stringify(campaign), 'total']) {
      add(sums(key).spend, row.currency, units(row.amount, 2));
    }
  }
  const money = (map: Map<string, bigint>, scale: number): Money[] =>
    [...map].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: Number(amount) / scale }));
  const perLead = (group: Sums, count: number): Money[] => {
    if (count === 0) return [];
    const currencies = [...new Set([...group.sms.keys(), ...group.spend.keys()])].sort();
    return currencies.map((currency) => {
      const total = Number((group.sms.get(currency) ?? 0n) + (group.spend.get(currency) ?? 0n) * 1000n) / 100_000;
      return { currency, amount: Math.round((total / count) * 10_000) / 10_000 };
    });
  };
  const figures = (group: Sums) => ({
    leads: group.leads,
    verifiedLeads: group.verified,
    smsCost: money(group.sms, 100_000),
    smsPricesPending: group.pending,
    adSpend: money(group.spend, 100),
    costPerLead: perLead(group, group.leads),
    costPerVerifiedLead: perLead(group, group.verified),
  });
  const rows = [...groups].filter(([key]) => key !== 'total').map(([key, group]) => ({ key: JSON.parse(key) as string[], group }));
  const byLeads = (a: LeadCost, b: LeadCost) =>
    b.leads - a.leads || a.utmSource.localeCompare(b.utmSource) || a.utmCampaign.localeCompare(b.utmCampaign);
  return {
    byCampaign: rows
      .filter(({ key }) => key.length === 2)
      .map(({ key: [utmSource, utmCampaign], group }) => ({ utmSource: utmSource!, utmCampaign: utmCampaign!, ...figures(group) }))
      .sort(byLeads),
    byDay: rows
      .filter(({ key }) => key.length === 3)
      .map(({ key: [day, utmSource, utmCampaign], group }) => ({ day: day!, utmSource: utmSource!, utmCampaign: utmCampaign!, ...figures(group) }))
      .sort((a, b) => b.day.localeCompare(a.day) || byLeads(a, b)),
    total: figures(groups.get('total')!),
  };
}

describe('the overview’s costs', () => {
  it('equal the figures computed from the rows, per campaign, per day and in all', async () => {
    const { costs } = await overview(api.db, { now: NOW, days: DAYS });
    expect(costs).toEqual(await fromRows());
  });

  it('never add one currency to another, and divide by leads and verified leads', async () => {
    const { costs } = await overview(api.db, { now: NOW, days: DAYS });
    const autunno = costs.byCampaign.find((row) => row.utmSource === 'google' && row.utmCampaign === 'autunno')!;
    expect(autunno).toEqual({
      utmSource: 'google',
      utmCampaign: 'autunno',
      leads: 4,
      verifiedLeads: 3,
      smsCost: [
        { currency: 'EUR', amount: 0.074 },
        { currency: 'USD', amount: 0.05 },
      ],
      // The lead of 00:30 is still waiting for its price.
      smsPricesPending: 1,
      adSpend: [{ currency: 'EUR', amount: 100.5 }],
      costPerLead: [
        { currency: 'EUR', amount: 25.1435 },
        { currency: 'USD', amount: 0.0125 },
      ],
      costPerVerifiedLead: [
        { currency: 'EUR', amount: 33.5247 },
        { currency: 'USD', amount: 0.0167 },
      ],
    });
    expect(costs.byCampaign.find((row) => row.utmSource === 'meta')).toMatchObject({ leads: 0, costPerLead: [], costPerVerifiedLead: [] });
    expect(costs.byCampaign.find((row) => row.utmSource === '(direct)')).toMatchObject({ leads: 2, verifiedLeads: 1, smsPricesPending: 0 });
    expect(costs.byDay.filter((row) => row.day === '2026-11-20' && row.utmCampaign === 'autunno' && row.utmSource === 'google')).toEqual([
      expect.objectContaining({ leads: 3, adSpend: [{ currency: 'EUR', amount: 60.5 }] }),
    ]);
    expect(costs.byDay.some((row) => row.day === '2026-11-10')).toBe(false);
  });

  it('come with GET /api/admin/overview, in its schema; the lead detail shows its SMS price', async () => {
    const admin = await signInAsAdmin(api);
    const response = await admin.agent.get('/api/admin/overview?days=7');
    expect(response.status).toBe(200);
    const body = overviewSchema.parse(response.body) as Overview;
    expect(body.costs.total).toMatchObject({ smsCost: expect.any(Array), adSpend: expect.any(Array) });

    const priced = (await admin.agent.get(`/api/admin/leads/${pricedLead}`)).body as LeadDetail;
    expect(priced.sms).toMatchObject({ price: '0.07400', priceUnit: 'EUR', priceFetchedAt: '2026-11-20T08:00:00.000Z' });
    const givenUp = (await admin.agent.get(`/api/admin/leads/${givenUpLead}`)).body as LeadDetail;
    expect(givenUp.sms).toMatchObject({ price: null, priceUnit: null, priceFetchedAt: '2026-11-19T10:00:00.000Z' });
  });
});
