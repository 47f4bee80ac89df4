import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import { sha256Hex } from './personal-data-hash';

/**
 * The link in every email to a lead that withdraws its marketing consent (decision 048),
 * made like the guide link (decision 029): its token is HMAC-SHA256 of the lead id under
 * the worker's LINK_TOKEN_SECRET, cut to 128 bits (22 URL-safe characters), in its own
 * domain ("marketing-withdrawal:"), so it is not the guide link's token and neither gives
 * the other. The worker derives it when it composes an email; the database keeps only
 * its SHA-256 in marketing_withdrawal_links, which the API looks links up by without the
 * secret. The row goes with the lead (ON DELETE CASCADE).
 */
export function withdrawalLinkToken(secret: string, leadId: number) {
  const token = createHmac('sha256', secret)
    .update(`marketing-withdrawal:${leadId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
  return { token, hash: sha256Hex(token) };
}

/**
 * Makes the lead's withdrawal link answer to this token's hash, valid until the lead
 * reaches the retention period (when its data, and this row, are erased), before an
 * email carrying it goes out. Rewritten only when the hash or the period changed.
 */
export async function keyWithdrawalLink(db: Knex, leadId: number, tokenHash: string, retentionMonths: number) {
  await db.raw(
    `INSERT INTO marketing_withdrawal_links (lead_id, token_hash, expires_at)
     SELECT id, :tokenHash, created_at + make_interval(months => :retentionMonths) FROM ebook_requests WHERE id = :leadId
     ON CONFLICT (lead_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at
     WHERE (marketing_withdrawal_links.token_hash, marketing_withdrawal_links.expires_at)
       IS DISTINCT FROM (EXCLUDED.token_hash, EXCLUDED.expires_at)`,
    { leadId, tokenHash, retentionMonths },
  );
}

export interface WithdrawalLink {
  lead_id: number;
  expires_at: Date;
}

/** The link whose token has this SHA-256, if any. */
export function findWithdrawalLink(db: Knex, tokenHash: string) {
  return db('marketing_withdrawal_links')
    .where({ token_hash: tokenHash })
    .first<WithdrawalLink | undefined>('lead_id', 'expires_at');
}
