import type { Knex } from 'knex';
import { insertVerificationDeliverySql } from '@guida/shared/deliveries/crm-deliveries';
import type { EbookType } from '@guida/shared/lead-rules';

export interface DownloadTokenRow {
  id: number;
  lead_id: number;
  expires_at: Date;
  ebook_type: EbookType;
}

/** The link whose token hashes to this (only the hash is stored, decision 029). */
export function findDownloadToken(db: Knex, tokenHash: string) {
  return db('download_tokens as t')
    .join('ebook_requests as l', 'l.id', 't.lead_id')
    .where('t.token_hash', tokenHash)
    .first<DownloadTokenRow | undefined>('t.id', 't.lead_id', 't.expires_at', 'l.ebook_type');
}

/**
 * Counts a download once per link and visitor, in one statement: a visitor opening the
 * link again (or their PDF viewer fetching it again) adds nothing. The lead's first
 * download makes it engaged (decision 059), with its lead.guide_opened delivery for the
 * CRM: its id to enqueue, null when the lead was engaged already.
 */
export async function recordDownload(db: Knex, row: DownloadTokenRow, visitorHash: string): Promise<number | null> {
  const { rows } = await db.raw<{ rows: { crm_delivery_id: number | null }[] }>(
    `
    WITH first_by_visitor AS (
      INSERT INTO guide_downloads (lead_id, visitor_hash) VALUES (:leadId, :visitorHash)
      ON CONFLICT (lead_id, visitor_hash) DO NOTHING
      RETURNING lead_id
    ), counted AS (
      UPDATE download_tokens SET
        download_count = download_count + 1,
        first_downloaded_at = coalesce(first_downloaded_at, now()),
        last_downloaded_at = now()
      WHERE id = :id AND EXISTS (SELECT 1 FROM first_by_visitor)
    ), engaged AS (
      UPDATE ebook_requests SET engaged_at = now()
      WHERE id = :leadId AND engaged_at IS NULL AND EXISTS (SELECT 1 FROM first_by_visitor)
      RETURNING id
    ), told AS (${insertVerificationDeliverySql('lead.guide_opened', 'engaged')}
    )
    SELECT (SELECT id FROM told) AS crm_delivery_id
    `,
    { leadId: row.lead_id, visitorHash, id: row.id },
  );
  return rows[0]?.crm_delivery_id ?? null;
}
