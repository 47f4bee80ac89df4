import type { Knex } from 'knex';
import type { ConversionEvent } from '../jobs/conversions';
import { conversionEventId } from './conversion-uploads';
import { CONVERSION_DELIVERED } from './delivery-statuses';

/**
 * The Google Ads rows of conversion_uploads (decision 062; the Meta rows and the rest of the
 * table's writes are in conversion-uploads.ts): Google fetches its conversions
 * itself (the scheduled offline conversion import), so nothing is ever pending; a row is
 * written as delivered when a fetch serves the conversion, and each later fetch that
 * serves it again counts one more attempt. sent_at stays the first fetch.
 */

const GOOGLE_ADS = 'google_ads';
/** What a fetch that got the file answered, as the other platforms' HTTP statuses are kept. */
const FETCH_SERVED = 200;

/**
 * Records that a fetch at `at` served these conversions; returns those recorded. A lead
 * erased since it was read is left out (and so is its line of the file): nothing of it
 * goes out any more.
 */
export async function recordGoogleAdsFetch(
  db: Knex,
  conversions: readonly { leadId: number; event: ConversionEvent }[],
  options: { at: Date; summary: string },
): Promise<{ leadId: number; event: ConversionEvent }[]> {
  if (conversions.length === 0) return [];
  const rows = conversions.map(({ leadId, event }) => ({ lead_id: leadId, event, event_id: conversionEventId(leadId, event) }));
  const { rows: recorded } = await db.raw<{ rows: { lead_id: string; event: ConversionEvent }[] }>(
    `INSERT INTO conversion_uploads AS u
       (lead_id, subject_lead_id, platform, event, event_id, status, attempts, response_status, response_summary, sent_at, created_at, updated_at)
     SELECT c.lead_id, c.lead_id, ?, c.event, c.event_id, ?, 1, ?, ?, ?, ?, ?
     FROM jsonb_to_recordset(?::jsonb) AS c(lead_id bigint, event text, event_id text)
     JOIN ebook_requests l ON l.id = c.lead_id
     ON CONFLICT (subject_lead_id, platform, event) DO UPDATE SET
       attempts = u.attempts + 1,
       status = EXCLUDED.status,
       response_status = EXCLUDED.response_status,
       response_summary = EXCLUDED.response_summary,
       last_error = NULL,
       sent_at = COALESCE(u.sent_at, EXCLUDED.sent_at),
       updated_at = EXCLUDED.updated_at
     RETURNING u.lead_id, u.event`,
    [GOOGLE_ADS, CONVERSION_DELIVERED, FETCH_SERVED, options.summary, options.at, options.at, options.at, JSON.stringify(rows)],
  );
  return recorded.map((row) => ({ leadId: Number(row.lead_id), event: row.event }));
}

/** What the admin shows of the fetches so far: the latest, and the conversions served per event. */
export async function googleAdsFetchTotals(db: Knex) {
  const rows = await db('conversion_uploads')
    .where({ platform: GOOGLE_ADS })
    .groupBy('event')
    .select<{ event: ConversionEvent; conversions: string; last_fetched_at: Date | null }[]>(
      'event',
      db.raw('count(*) AS conversions'),
      db.raw('max(updated_at) AS last_fetched_at'),
    );
  const latest = rows.reduce<Date | null>((at, row) => (row.last_fetched_at && (!at || row.last_fetched_at > at) ? row.last_fetched_at : at), null);
  return {
    lastFetchedAt: latest,
    conversions: {
      lead: Number(rows.find((row) => row.event === 'lead')?.conversions ?? 0),
      verified_lead: Number(rows.find((row) => row.event === 'verified_lead')?.conversions ?? 0),
    },
  };
}
