import type { Knex } from 'knex';
import { OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import { smsPricesPendingSql } from '@guida/shared/deliveries/sms-prices';
import type { LeadCost, LeadCosts, Money } from '@guida/shared/schemas/admin-costs';
import { campaignSourceSql } from '@guida/shared/server/campaign-source-sql';
import { isVerifiedSql } from '@guida/shared/server/verified-lead-sql';

/**
 * What the leads of a period cost (decision 060), per campaign (utm_source, utm_campaign
 * of the lead's last touch, as the overview's other tables), per Italian day and campaign,
 * and in all: the leads and verified leads, what Twilio billed for their SMS (every
 * message of it, sms_prices; counted on the lead's day, whenever it was priced) and the
 * ad spend imported for those days. Spend imported for a whole source (utm_campaign '')
 * is no campaign's: it shows on a row of its own for that source, "(intera sorgente)",
 * with all of the source's leads and all of its spend; the campaign rows leave it out.
 * Sums are made by PostgreSQL on the exact decimals, per currency; only the costs per
 * lead are divided here.
 */

/**
 * Each query groups by day and campaign, by campaign, by day and source, by source, and in
 * all: `GROUPING(day, utm_source, utm_campaign)` tells which (LEVELS).
 */
const GROUPS = `GROUPING SETS ((day, utm_source, utm_campaign), (utm_source, utm_campaign), (day, utm_source), (utm_source), ())`;
const LEVELS = { dayCampaign: 0, dayWholeSource: 1, campaign: 4, wholeSource: 5, total: 7 } as const;

interface GroupKey {
  day: string | null;
  utm_source: string | null;
  utm_campaign: string | null;
  level: number;
}
type LeadRow = GroupKey & { leads: number; verified: number; pending: number };
type AmountRow = GroupKey & { currency: string; amount: string };
/** `amount` null: only whole-source spend, which a campaign row leaves out. */
type SpendRow = GroupKey & { currency: string; amount: string | null; whole_source: boolean };

/** The leads of [from, to), with the day and campaign each is counted in. */
const leadsOfPeriod = `
  SELECT l.id, s.id AS sms_id, CASE WHEN s.id IS NULL THEN 0 ELSE ${smsPricesPendingSql('s')} END AS pending,
    ${isVerifiedSql('l')} AS verified,
    to_char(l.created_at AT TIME ZONE '${OPERATOR_TIME_ZONE}', 'YYYY-MM-DD') AS day,
    ${campaignSourceSql('l.utm_source')} AS utm_source,
    coalesce(l.utm_campaign, '') AS utm_campaign
  FROM ebook_requests l
  LEFT JOIN sms_messages s ON s.lead_id = l.id
  WHERE l.created_at >= :from AND l.created_at < :to`;

const LEVEL = 'GROUPING(day, utm_source, utm_campaign) AS level';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const byCurrency = (rows: AmountRow[]) => rows.map((row): Money => ({ currency: row.currency, amount: Number(row.amount) }));

/** (ad spend + SMS cost) ÷ `count` per currency, four decimals; none when there is nothing to divide by. */
function perLead(smsCost: Money[], adSpend: Money[], count: number): Money[] {
  if (count === 0) return [];
  const totals = new Map<string, number>();
  for (const { currency, amount } of [...adSpend, ...smsCost]) totals.set(currency, (totals.get(currency) ?? 0) + amount);
  return [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount: round(amount / count, 4) }));
}

export async function leadCosts(db: Knex, { from, to, fromDay, toDay }: { from: Date; to: Date; fromDay: string; toDay: string }): Promise<LeadCosts> {
  const [leads, sms, spend] = await Promise.all([
    db.raw<{ rows: LeadRow[] }>(
      `SELECT day, utm_source, utm_campaign, ${LEVEL},
         count(*)::int AS leads,
         count(*) FILTER (WHERE verified)::int AS verified,
         sum(pending)::int AS pending
       FROM (${leadsOfPeriod}) l
       GROUP BY ${GROUPS}`,
      { from, to },
    ),
    db.raw<{ rows: AmountRow[] }>(
      `SELECT day, utm_source, utm_campaign, ${LEVEL}, p.price_unit AS currency, sum(p.price)::text AS amount
       FROM (${leadsOfPeriod}) l
       JOIN sms_prices p ON p.sms_id = l.sms_id
       WHERE p.price IS NOT NULL
       GROUP BY p.price_unit, ${GROUPS}
       ORDER BY currency`,
      { from, to },
    ),
    db.raw<{ rows: SpendRow[] }>(
      `SELECT day, utm_source, utm_campaign, ${LEVEL}, currency,
         (CASE WHEN GROUPING(utm_campaign) = 1 THEN sum(amount) ELSE sum(amount) FILTER (WHERE utm_campaign <> '') END)::text AS amount,
         bool_or(utm_campaign = '') AS whole_source
       FROM (
         SELECT to_char(a.day, 'YYYY-MM-DD') AS day, ${campaignSourceSql('a.utm_source')} AS utm_source, a.utm_campaign, a.currency, a.amount
         FROM ad_spend a
         WHERE a.day >= :fromDay AND a.day <= :toDay
       ) a
       GROUP BY currency, ${GROUPS}
       ORDER BY currency`,
      { fromDay, toDay },
    ),
  ]);

  const keyOf = (row: GroupKey) => JSON.stringify([row.level, row.day, row.utm_source, row.utm_campaign]);
  const groups = new Map<string, { key: GroupKey; leads: LeadRow | undefined; sms: AmountRow[]; spend: AmountRow[]; wholeSource: boolean }>();
  const group = (row: GroupKey) => {
    const key = keyOf(row);
    return groups.get(key) ?? groups.set(key, { key: row, leads: undefined, sms: [], spend: [], wholeSource: false }).get(key)!;
  };
  for (const row of leads.rows) group(row).leads = row;
  for (const row of sms.rows) group(row).sms.push(row);
  for (const { amount, whole_source: wholeSource, ...row } of spend.rows) {
    if (amount === null) continue;
    const entry = group(row);
    entry.spend.push({ ...row, amount });
    entry.wholeSource ||= wholeSource;
  }

  const figures = ({ leads: counts, sms: smsRows, spend: spendRows }: { leads: LeadRow | undefined; sms: AmountRow[]; spend: AmountRow[] }) => {
    const smsCost = byCurrency(smsRows);
    const adSpend = byCurrency(spendRows);
    const leadCount = counts?.leads ?? 0;
    const verifiedLeads = counts?.verified ?? 0;
    return {
      leads: leadCount,
      verifiedLeads,
      smsCost,
      smsPricesPending: counts?.pending ?? 0,
      adSpend,
      costPerLead: perLead(smsCost, adSpend, leadCount),
      costPerVerifiedLead: perLead(smsCost, adSpend, verifiedLeads),
    };
  };
  const campaignOf = (key: GroupKey) => ({
    utmSource: key.utm_source!,
    utmCampaign: key.utm_campaign ?? '',
    wholeSource: key.utm_campaign === null,
  });
  const all = [...groups.values()];
  // A source's row only where spend was imported for the whole source (else it adds nothing).
  const rowsOf = (campaignLevel: number, sourceLevel: number) =>
    all.filter((entry) => entry.key.level === campaignLevel || (entry.key.level === sourceLevel && entry.wholeSource));
  const mostLeadsFirst = (a: LeadCost, b: LeadCost) =>
    b.leads - a.leads ||
    a.utmSource.localeCompare(b.utmSource) ||
    Number(b.wholeSource) - Number(a.wholeSource) ||
    a.utmCampaign.localeCompare(b.utmCampaign);

  const total = all.find((entry) => entry.key.level === LEVELS.total);
  return {
    byCampaign: rowsOf(LEVELS.campaign, LEVELS.wholeSource)
      .map((entry) => ({ ...campaignOf(entry.key), ...figures(entry) }))
      .sort(mostLeadsFirst),
    byDay: rowsOf(LEVELS.dayCampaign, LEVELS.dayWholeSource)
      .map((entry) => ({ day: entry.key.day!, ...campaignOf(entry.key), ...figures(entry) }))
      .sort((a, b) => b.day.localeCompare(a.day) || mostLeadsFirst(a, b)),
    total: figures(total ?? { leads: undefined, sms: [], spend: [] }),
  };
}
