import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import { sha256Hex } from './personal-data-hash';

/**
 * The token of a lead's download link: HMAC-SHA256 of the lead id under the worker's
 * LINK_TOKEN_SECRET, cut to 128 bits (22 URL-safe characters, as before). Derived, not
 * stored: every retry, the sweeper after a Redis outage and the email fallback rebuild
 * the same link from the lead id, while the database holds only its SHA-256, which does
 * not give the link back (decision 029).
 */
export function guideLinkToken(secret: string, leadId: number) {
  const token = createHmac('sha256', secret).update(`guide-link:${leadId}`).digest().subarray(0, 16).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

/**
 * Makes the lead's stored link answer to this token's hash, before a message carrying
 * it goes out. Only a link stored before hashing (a random token) or never sent yet
 * changes.
 */
export async function keyGuideLink(db: Knex, leadId: number, tokenHash: string) {
  await db('download_tokens').where({ lead_id: leadId }).update({ token_hash: tokenHash });
}
