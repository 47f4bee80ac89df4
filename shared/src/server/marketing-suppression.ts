import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { normaliseEmail } from '../gdpr-rules';
import { CONTACT_KINDS, type ContactKind, type WithdrawalSource } from '../marketing-withdrawal';

/**
 * marketing_suppressions, the list of contacts that refused marketing: every write and
 * read of it. A row holds a keyed hash of an email address or a phone number, never the
 * contact itself, and no lead id: it outlives the erasure of the lead, which is its
 * purpose (decision 048). A plain SHA-256 would not do: the Italian and Swiss mobile
 * numbers are few enough to hash them all in minutes, so the list would keep the numbers.
 */

export type { ContactKind, WithdrawalSource };

/** What SUPPRESSION_HASH_SECRET is when unset: fine on a laptop, refused in production. */
export const DEVELOPMENT_SUPPRESSION_HASH_SECRET = 'development-only-suppression-hash-secret';

/** The key of the suppression list's hashes; API (withdrawals, admin) and worker (CRM, exports). */
export const suppressionEnv = {
  /**
   * Keys the hashes of the suppression list. Never change it: the list would no longer
   * recognise anyone on it.
   */
  SUPPRESSION_HASH_SECRET: z
    .string()
    .min(32, { error: 'must be at least 32 characters' })
    .default(DEVELOPMENT_SUPPRESSION_HASH_SECRET),
};

export function requireSuppressionSecretInProduction(
  value: { NODE_ENV: string; SUPPRESSION_HASH_SECRET: string },
  ctx: z.RefinementCtx,
) {
  if (value.NODE_ENV === 'production' && value.SUPPRESSION_HASH_SECRET === DEVELOPMENT_SUPPRESSION_HASH_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['SUPPRESSION_HASH_SECRET'],
      message: 'required in production (at least 32 random characters, never changed afterwards)',
    });
  }
}

/** A lead's contacts, as stored (the phone in E.164). */
export interface Contact {
  email: string;
  telefono: string;
}

/** HMAC-SHA256 (hex) of "email:<normalised address>" or "phone:<E.164>". */
export function contactHash(secret: string, kind: ContactKind, value: string) {
  const normalised = kind === 'email' ? normaliseEmail(value) : value.trim();
  return createHmac('sha256', secret).update(`${kind}:${normalised}`).digest('hex');
}

export const contactHashesOf = (secret: string, contact: Contact) => ({
  email: contactHash(secret, 'email', contact.email),
  phone: contactHash(secret, 'phone', contact.telefono),
});

/**
 * Puts these contacts' addresses and numbers on the list, in the caller's transaction.
 * `refresh` (a new withdrawal) moves a suppression already there to now and this source;
 * without it only missing rows are added. True when a row was added or moved.
 */
export async function recordSuppression(
  trx: Knex.Transaction,
  secret: string,
  contacts: readonly Contact[],
  options: { source: WithdrawalSource; refresh: boolean },
) {
  const rows = new Map<string, ContactKind>();
  for (const contact of contacts) {
    const hashes = contactHashesOf(secret, contact);
    for (const kind of CONTACT_KINDS) rows.set(hashes[kind], kind);
  }
  if (rows.size === 0) return false;
  const insert = trx('marketing_suppressions').insert(
    [...rows].map(([hash, kind]) => ({ contact_hash: hash, contact_kind: kind, source: options.source })),
  );
  const written = options.refresh
    ? await insert
        .onConflict('contact_hash')
        .merge({ suppressed_at: trx.fn.now(), source: options.source })
        .returning('contact_hash')
    : await insert.onConflict('contact_hash').ignore().returning('contact_hash');
  return written.length > 0;
}

/** A lead's suppression: the latest withdrawal for its address or its number. */
export interface LeadSuppression {
  suppressedAt: Date;
  /** Which of the lead's contacts are on the list. */
  kinds: ContactKind[];
  source: WithdrawalSource;
}

/**
 * The suppressions of these leads, computed when read (nothing is stored with a lead):
 * their contacts are hashed here and looked up by primary key, so the list's key never
 * reaches the database. Leads not on the list are absent from the map.
 */
export async function suppressionsOf(
  db: Knex,
  secret: string,
  leads: readonly (Contact & { id: number })[],
): Promise<Map<number, LeadSuppression>> {
  const byLead = leads.map((lead) => ({ id: lead.id, hashes: contactHashesOf(secret, lead) }));
  const all = [...new Set(byLead.flatMap(({ hashes }) => [hashes.email, hashes.phone]))];
  const found = new Map<string, { suppressed_at: Date; source: WithdrawalSource }>();
  for (let start = 0; start < all.length; start += 1000) {
    const rows = await db('marketing_suppressions')
      .whereIn('contact_hash', all.slice(start, start + 1000))
      .select<{ contact_hash: string; suppressed_at: Date; source: WithdrawalSource }[]>('contact_hash', 'suppressed_at', 'source');
    for (const row of rows) found.set(row.contact_hash, row);
  }
  const result = new Map<number, LeadSuppression>();
  for (const { id, hashes } of byLead) {
    const matches = CONTACT_KINDS.flatMap((kind) => {
      const row = found.get(hashes[kind]);
      return row ? [{ kind, ...row }] : [];
    });
    if (matches.length === 0) continue;
    const latest = matches.reduce((a, b) => (b.suppressed_at > a.suppressed_at ? b : a));
    result.set(id, { suppressedAt: latest.suppressed_at, kinds: matches.map((match) => match.kind), source: latest.source });
  }
  return result;
}

/** The suppression rows of these contacts (data-access exports), without their hashes. */
export async function suppressionRowsOf(db: Knex, secret: string, contacts: { kind: ContactKind; value: string }[]) {
  if (contacts.length === 0) return [];
  return db('marketing_suppressions')
    .whereIn('contact_hash', [...new Set(contacts.map((contact) => contactHash(secret, contact.kind, contact.value)))])
    .orderBy('created_at')
    .select<{ contact_kind: ContactKind; source: WithdrawalSource; created_at: Date; suppressed_at: Date }[]>(
      'contact_kind',
      'source',
      'created_at',
      'suppressed_at',
    );
}
