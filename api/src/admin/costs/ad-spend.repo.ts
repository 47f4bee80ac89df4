import type { Knex } from 'knex';
import type { AdSpendRow } from '@guida/shared/ad-spend/ad-spend-csv';
import type { AdSpendList } from '@guida/shared/schemas/admin-costs';

/** Rows the Costs tab lists at most; the rest are counted. */
const LISTED_ROWS = 1000;

/**
 * Stores a whole file's rows in one statement (decision 060): a day, utm_source and
 * utm_campaign not imported before is added, one imported before gets the new amount and
 * currency. How many of each; nothing is stored when any row fails.
 */
export async function importAdSpend(db: Knex, rows: AdSpendRow[], by: { importId: string; adminId: number }) {
  const { rows: written } = await db.raw<{ rows: { inserted: boolean }[] }>(
    `INSERT INTO ad_spend (day, utm_source, utm_campaign, amount, currency, import_id, imported_by)
     SELECT day, utm_source, utm_campaign, amount, currency, :importId, :adminId
     FROM unnest(:days::date[], :sources::text[], :campaigns::text[], :amounts::numeric[], :currencies::text[])
       AS spend(day, utm_source, utm_campaign, amount, currency)
     ON CONFLICT (day, utm_source, utm_campaign) DO UPDATE SET
       amount = EXCLUDED.amount, currency = EXCLUDED.currency, imported_at = now(),
       import_id = EXCLUDED.import_id, imported_by = EXCLUDED.imported_by
     -- xmax is 0 on a row this statement created, set on one it updated.
     RETURNING (xmax = 0) AS inserted`,
    {
      importId: by.importId,
      adminId: by.adminId,
      days: rows.map((row) => row.day),
      sources: rows.map((row) => row.utmSource),
      campaigns: rows.map((row) => row.utmCampaign),
      amounts: rows.map((row) => row.amount),
      currencies: rows.map((row) => row.currency),
    },
  );
  const inserted = written.filter((row) => row.inserted).length;
  return { inserted, replaced: written.length - inserted };
}

/** The spend imported for the last `days` days up to `today` (YYYY-MM-DD), newest day first. */
export async function listAdSpend(db: Knex, { today, days }: { today: string; days: number }): Promise<AdSpendList> {
  const since = db.raw(`?::date - ?::int + 1`, [today, days]);
  const [rows, counted] = await Promise.all([
    db('ad_spend as a')
      .leftJoin('users as u', 'u.id', 'a.imported_by')
      .where('a.day', '>=', since)
      .orderBy([{ column: 'a.day', order: 'desc' }, { column: 'a.utm_source' }, { column: 'a.utm_campaign' }])
      .limit(LISTED_ROWS)
      .select<{ day: string; utm_source: string; utm_campaign: string; amount: string; currency: string; imported_at: Date; username: string | null }[]>(
        db.raw(`to_char(a.day, 'YYYY-MM-DD') AS day`),
        'a.utm_source',
        'a.utm_campaign',
        'a.amount',
        'a.currency',
        'a.imported_at',
        'u.username',
      ),
    db('ad_spend').where('day', '>=', since).first<{ count: number }>(db.raw('count(*)::int AS count')),
  ]);
  return {
    days,
    rows: rows.map((row) => ({
      day: row.day,
      utmSource: row.utm_source,
      utmCampaign: row.utm_campaign,
      amount: Number(row.amount),
      currency: row.currency,
      importedAt: row.imported_at.toISOString(),
      importedBy: row.username,
    })),
    more: Math.max(0, (counted?.count ?? 0) - rows.length),
  };
}
