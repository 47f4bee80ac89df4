import type { Knex } from 'knex';

/**
 * The places taken (decision 047): one `offer_places` row per phone (its keyed hash), with
 * when the place was taken. The lead insert statement (leads.repo.ts) writes them; here
 * they are counted and, for capped intake, read under the offer row's lock.
 */

/** Rows taken at or after the offer's start (every row when it has none). */
const since = (startsAt: Date | null) => startsAt ?? '-infinity';

/** Places taken since the offer's start. */
export async function countPlacesTaken(db: Knex, startsAt: Date | null): Promise<number> {
  const { rows } = await db.raw<{ rows: { taken: number }[] }>(
    'SELECT count(*)::int AS taken FROM offer_places WHERE taken_at >= ?::timestamptz',
    [since(startsAt)],
  );
  return rows[0]!.taken;
}

/**
 * For capped intake, in the caller's transaction: locks the offer row until the
 * transaction ends, so batches that may take places go one at a time (in every API
 * process), then reads, with a snapshot taken after the lock (a statement of its own: in
 * READ COMMITTED each statement sees what committed before it began), the places taken
 * and which of `keys` already hold one.
 */
export async function lockOfferAndReadPlaces(
  trx: Knex.Transaction,
  startsAt: Date | null,
  keys: Buffer[],
): Promise<{ taken: number; held: Set<string> }> {
  await trx.raw('SELECT id FROM offer_settings WHERE id = 1 FOR UPDATE');
  const { rows } = await trx.raw<{ rows: { taken: number; held: string[] }[] }>(
    `SELECT (SELECT count(*) FROM offer_places WHERE taken_at >= :since::timestamptz)::int AS taken,
       ARRAY(
         SELECT encode(phone_key, 'hex') FROM offer_places
         WHERE phone_key = ANY(:keys::bytea[]) AND taken_at >= :since::timestamptz
       ) AS held`,
    { since: since(startsAt), keys },
  );
  const row = rows[0]!;
  return { taken: row.taken, held: new Set(row.held) };
}

/**
 * Places for the leads stored before places were kept (the first API start after the
 * migration, in the caller's transaction): one per phone, taken when its first lead since
 * the offer's start came (else its first lead). A place already written by the new intake
 * stays as it is. Returns the places added.
 */
export async function backfillPlaces(
  trx: Knex.Transaction,
  startsAt: Date | null,
  placeKey: (phone: string) => Buffer,
): Promise<number> {
  const { rows } = await trx.raw<{ rows: { telefono: string; taken_at: Date }[] }>(
    `SELECT telefono,
       coalesce(min(created_at) FILTER (WHERE created_at >= :since::timestamptz), min(created_at)) AS taken_at
     FROM ebook_requests GROUP BY telefono`,
    { since: since(startsAt) },
  );
  let added = 0;
  const CHUNK = 1000;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const result = await trx.raw<{ rowCount: number }>(
      `INSERT INTO offer_places (phone_key, taken_at)
       SELECT * FROM unnest(:keys::bytea[], :takenAt::timestamptz[])
       ON CONFLICT (phone_key) DO NOTHING`,
      { keys: chunk.map((row) => placeKey(row.telefono)), takenAt: chunk.map((row) => row.taken_at) },
    );
    added += result.rowCount;
  }
  return added;
}
