import type { Knex } from 'knex';
import type { EbookType } from '@guida/shared/lead-rules';

export interface DownloadTokenRow {
  id: number;
  lead_id: number;
  expires_at: Date;
  ebook_type: EbookType;
}

export function findDownloadToken(db: Knex, token: string) {
  return db('download_tokens as t')
    .join('ebook_requests as l', 'l.id', 't.lead_id')
    .where('t.token', token)
    .first<DownloadTokenRow | undefined>('t.id', 't.lead_id', 't.expires_at', 'l.ebook_type');
}

export async function recordDownload(db: Knex, row: DownloadTokenRow) {
  await db.transaction(async (trx) => {
    await trx('download_tokens')
      .where({ id: row.id })
      .update({
        download_count: trx.raw('download_count + 1'),
        first_downloaded_at: trx.raw('coalesce(first_downloaded_at, now())'),
        last_downloaded_at: trx.fn.now(),
      });
    await trx('guide_downloads').insert({ lead_id: row.lead_id });
  });
}
