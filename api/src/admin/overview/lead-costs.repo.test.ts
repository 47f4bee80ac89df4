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

let messages = 0;
const nextSid = () => `SM${String((messages += 1)).padStart(32, '0')}`;

/**
 * A lead of `at`, its SMS as a worker and Twilio left it: priced (`price`), given up
 * (`fetched` without a price), its lookup open (`fetched: false`), or not final yet
 * (neither); `earlier`, prices of the messages a resend replaced.
 */
async function lead(
  at: string,
  campaign: { utm_source: string | null; utm_campaign?: string | null },
  sms: { provider?: string; price?: string; unit?: string; fetched?: boolean; messageId?: string; earlier?: string[] } = {},
  verified: { reachable?: boolean; engaged?: boolean } = {},
) {
  const { leadId } = await insertLead(api.db, {
    ...campaign,
    created_at: new Date(at),
    reachable_at: verified.reachable ? new Date(at) : null,
    engaged_at: verified.engaged ? new Date(at) : null,
  });
  const messageId = sms.messageId ?? nextSid();
  const [row] = await api.db('sms_messages')
    .where({ lead_id: leadId })
    .update({ status: 'delivered', provider: sms.provider ?? 'twilio', provider_message_id: messageId })
    .returning<{ id: number }[]>('id');
  const smsId = row!.id;
  for (const price of sms.earlier ?? []) {
    await api.db('sms_prices').insert({ sms_id: smsId, provider_message_id: nextSid(), price, price_unit: 'EUR', fetched_at: new Date(at) });
  }
  if (sms.price !== undefined || sms.fetched !== undefined) {
    await api.db('sms_prices').insert({
      sms_id: smsId,
      provider_message_id: messageId,
      price: sms.price ?? null,
      price_unit: sms.price ? (sms.unit ?? 'EUR') : null,
      fetched_at: sms.price ? new Date(at) : null,
      given_up_at: !sms.price && sms.fetched ? new Date(at) : null,
    });
  }
  return leadId;
}

let pricedLead: number;
let givenUpLead: number;
let resentLead: number;

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
  // Spend of the whole google source: no campaign's, a row of its own.
  await spend('2026-11-19', 'google', '', '30.00');
  // 18 November: an SMS resent twice, two messages priced, the last one's lookup open.
  resentLead = await lead('2026-11-18T10:00:00Z', { utm_source: 'newsletter', utm_campaign: 'novembre' }, { fetched: false, earlier: ['0.07400', '0.07400'] });
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
    .select('l.created_at', 'l.utm_source', 'l.utm_campaign', 'l.reachable_at', 'l.engaged_at', 's.id as sms_id', 's.provider', 's.provider_message_id');
  const prices = await api.db('sms_prices').select('sms_id', 'provider_message_id', 'price', 'price_unit', 'fetched_at', 'given_up_at');
  const spendRows = await api.db('ad_spend').select(api.db.raw(`to_char(day, 'YYYY-MM-DD') AS day`), 'utm_source', 'utm_campaign', 'amount', 'currency');

  type Sums = { leads: number; verified: number; pending: number; sms: Map<string, bigint>; spend: Map<string, bigint>; wholeSource: boolean };
  const groups = new Map<string, Sums>();
  const sums = (key: string) =>
    groups.get(key) ?? groups.set(key, { leads: 0, verified: 0, pending: 0, sms: new Map(), spend: new Map(), wholeSource: false }).get(key)!;
  const add = (map: Map<string, bigint>, currency: string, units: bigint) => map.set(currency, (map.get(currency) ?? 0n) + units);
  // Prices in 1/100000, spend in 1/100 of their currency.
  const units = (decimal: string, digits: number) => BigInt(decimal.replace('.', '').padEnd(decimal.indexOf('.') + digits, '0'));
  const source = (value: string | null) => (value === null || value === 'direct' ? '(direct)' : value);
  // A campaign's keys, and its source's ('*': the whole source), per day and over the period.
  const keysOf = (day: string, utmSource: string, utmCampaign: string | null) => [
    ...(utmCampaign === null ? [] : [JSON.stringify([day, utmSource, utmCampaign]), JSON.stringify([utmSource, utmCampaign])]),
    JSON.stringify([day, utmSource, '*']),
    JSON.stringify([utmSource, '*']),
    'total',
  ];
  for (const row of leads) {
    const day = dayOf(row.created_at);
    if (!inPeriod(day)) continue;
    const own = prices.filter((price) => price.sms_id === row.sms_id);
    // Open lookups, and the current Twilio message while no lookup is open for it.
    const pending =
      own.filter((price) => price.fetched_at === null && price.given_up_at === null).length +
      (row.provider === 'twilio' && row.provider_message_id && !own.some((price) => price.provider_message_id === row.provider_message_id) ? 1 : 0);
    for (const key of keysOf(day, source(row.utm_source), row.utm_campaign ?? '')) {
      const group = sums(key);
      group.leads += 1;
      if (row.reachable_at || row.engaged_at) group.verified += 1;
      group.pending += pending;
      for (const price of own) if (price.price !== null) add(group.sms, price.price_unit, units(price.price, 5));
    }
  }
  for (const row of spendRows) {
    if (!inPeriod(row.day)) continue;
    // Spend of a whole source is counted on its source, never on a campaign.
    const wholeSource = row.utm_campaign === '';
    for (const key of keysOf(row.day, source(row.utm_source), wholeSource ? null : row.utm_campaign)) {
      add(sums(key).spend, row.currency, units(row.amount, 2));
      if (wholeSource && key !== 'total') sums(key).wholeSource = true;
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
  // A source's row only where spend was imported for the whole source.
  const rows = [...groups]
    .filter(([key, group]) => key !== 'total' && (!key.endsWith('"*"]') || group.wholeSource))
    .map(([key, group]) => ({ key: JSON.parse(key) as string[], group }));
  const campaign = (utmSource: string, utmCampaign: string) =>
    utmCampaign === '*' ? { utmSource, utmCampaign: '', wholeSource: true } : { utmSource, utmCampaign, wholeSource: false };
  const byLeads = (a: LeadCost, b: LeadCost) =>
    b.leads - a.leads || a.utmSource.localeCompare(b.utmSource) || Number(b.wholeSource) - Number(a.wholeSource) || a.utmCampaign.localeCompare(b.utmCampaign);
  return {
    byCampaign: rows
      .filter(({ key }) => key.length === 2)
      .map(({ key: [utmSource, utmCampaign], group }) => ({ ...campaign(utmSource!, utmCampaign!), ...figures(group) }))
      .sort(byLeads),
    byDay: rows
      .filter(({ key }) => key.length === 3)
      .map(({ key: [day, utmSource, utmCampaign], group }) => ({ day: day!, ...campaign(utmSource!, utmCampaign!), ...figures(group) }))
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
      wholeSource: false,
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

  it('show spend of a whole source on a row of its own, with all of the source’s leads and spend, and on no campaign’s', async () => {
    const { costs } = await overview(api.db, { now: NOW, days: DAYS });
    const google = costs.byCampaign.filter((row) => row.utmSource === 'google');
    expect(google.map((row) => [row.utmCampaign, row.wholeSource])).toEqual([
      ['', true],
      ['autunno', false],
      ['autunno-usd', false],
    ]);
    // 40 + 60,50 of autunno and 30 of the whole source; 10 USD of autunno-usd; the four autunno leads.
    expect(google[0]).toMatchObject({
      leads: 4,
      verifiedLeads: 3,
      adSpend: [
        { currency: 'EUR', amount: 130.5 },
        { currency: 'USD', amount: 10 },
      ],
      costPerLead: [
        { currency: 'EUR', amount: 32.6435 },
        { currency: 'USD', amount: 2.5125 },
      ],
    });
    expect(google[1]!.adSpend).toEqual([{ currency: 'EUR', amount: 100.5 }]);
    // Per day: only the 19th had spend of the whole source; its google leads that day.
    expect(costs.byDay.filter((row) => row.wholeSource).map((row) => [row.day, row.leads, row.adSpend])).toEqual([
      ['2026-11-19', 1, [{ currency: 'EUR', amount: 70 }]],
    ]);
    expect(costs.total.adSpend).toEqual([
      { currency: 'EUR', amount: 155.5 },
      { currency: 'USD', amount: 10 },
    ]);
  });

  it('add up every message of a resent SMS, and count the one still waiting for its price', async () => {
    const { costs } = await overview(api.db, { now: NOW, days: DAYS });
    expect(costs.byCampaign.find((row) => row.utmSource === 'newsletter')).toMatchObject({
      leads: 1,
      smsCost: [{ currency: 'EUR', amount: 0.148 }],
      smsPricesPending: 1,
      costPerLead: [{ currency: 'EUR', amount: 0.148 }],
    });
  });

  it('come with GET /api/admin/overview, in its schema; the lead detail shows its SMS price', async () => {
    const admin = await signInAsAdmin(api);
    const response = await admin.agent.get('/api/admin/overview?days=7');
    expect(response.status).toBe(200);
    const body = overviewSchema.parse(response.body) as Overview;
    expect(body.costs.total).toMatchObject({ smsCost: expect.any(Array), adSpend: expect.any(Array) });

    const priced = (await admin.agent.get(`/api/admin/leads/${pricedLead}`)).body as LeadDetail;
    expect(priced.sms).toMatchObject({ prices: [{ currency: 'EUR', amount: '0.07400' }], pricesPending: 0, pricesGivenUp: 0 });
    const givenUp = (await admin.agent.get(`/api/admin/leads/${givenUpLead}`)).body as LeadDetail;
    expect(givenUp.sms).toMatchObject({ prices: [], pricesPending: 0, pricesGivenUp: 1 });
    const resent = (await admin.agent.get(`/api/admin/leads/${resentLead}`)).body as LeadDetail;
    expect(resent.sms).toMatchObject({ prices: [{ currency: 'EUR', amount: '0.14800' }], pricesPending: 1, pricesGivenUp: 0 });
  });
});
