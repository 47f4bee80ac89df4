import { createHash, randomBytes } from 'node:crypto';
import { mailboxOf, normaliseEmail } from '../gdpr-rules';

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * SHA-256 of the normalised email: what stays of an address once it is erased, so a
 * later question ("did you erase my data?") can still be answered. Same value as the
 * migration's backfill, encode(sha256(lower(email)), 'hex').
 */
export const emailHash = (email: string) => sha256Hex(normaliseEmail(email));

/**
 * A token for a personal link (128 bits, URL-safe) and the hash stored in its place: a
 * database leak does not leak working links.
 */
export function newLinkToken() {
  const token = randomBytes(16).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

/** The tokens we issue: 22 URL-safe characters (anything else is not looked up). */
export const LINK_TOKEN_FORMAT = /^[A-Za-z0-9_-]{22}$/;

/** SHA-256 of the mailbox an address delivers to (mailboxOf): the key of per-address limits. */
export const mailboxHash = (email: string) => sha256Hex(mailboxOf(email));
