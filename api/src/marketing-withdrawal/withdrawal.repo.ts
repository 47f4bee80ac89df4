import type { Knex } from 'knex';
import { CONVERSION_SKIP_REASONS, skipUnsentConversionUploads } from '@guida/shared/deliveries/conversion-uploads';
import { insertCrmDeliveries } from '@guida/shared/deliveries/crm-deliveries';
import { normaliseEmail } from '@guida/shared/gdpr-rules';
import { MARKETING_CONSENT_VERSION } from '@guida/shared/lead-rules';
import {
  contactHashesOf,
  recordSuppression,
  type Contact,
  type WithdrawalSource,
} from '@guida/shared/server/marketing-suppression';
import { emailHash } from '@guida/shared/server/personal-data-hash';

export interface WithdrawalOrigin {
  source: WithdrawalSource;
  /** Truncated, like every stored address; null for an admin's withdrawal. */
  ipAddress: string | null;
  userAgent: string | null;
}

export type WithdrawalOutcome =
  | { outcome: 'not_found' }
  | { outcome: 'already' }
  | { outcome: 'withdrawn'; leadIds: number[]; crmDeliveries: { id: number; leadId: number }[] };

type PersonLead = Contact & { id: number; marketing_consent_version: string | null };

/**
 * The leads of the person a lead belongs to: the lead, and every lead with the same
 * address or the same number (the contacts the suppression list keys), not withdrawn yet.
 * Lead emails are stored in their normalised form, so the index on email applies.
 */
const notYetWithdrawn = (db: Knex, lead: Contact & { id: number }) =>
  db('ebook_requests')
    .where(
      (query) =>
        void query.where('id', lead.id).orWhere('email', normaliseEmail(lead.email)).orWhere('telefono', lead.telefono),
    )
    .whereNull('marketing_consent_withdrawn_at');

/**
 * Withdraws the marketing consent of a lead's person, in one transaction: every lead with
 * the same address or number not withdrawn yet is marked withdrawn, gets a consent row
 * "marketing: false" (the proof of the consent it gave stays as it was: the table is
 * append-only) and a lead.consent_withdrawn delivery for the CRM; the contacts of these
 * leads and of the lead itself go on the suppression list (a new withdrawal moves the
 * date of a suppression already there). A second withdrawal finds nothing left to do.
 * The caller enqueues the CRM deliveries once committed.
 */
export function recordWithdrawal(
  db: Knex,
  suppressionHashSecret: string,
  leadId: number,
  origin: WithdrawalOrigin,
): Promise<WithdrawalOutcome> {
  return db.transaction(async (trx) => {
    const lead = await trx('ebook_requests').where({ id: leadId }).first<(Contact & { id: number }) | undefined>('id', 'email', 'telefono');
    if (!lead) return { outcome: 'not_found' };
    // Locked: a parallel withdrawal of the same person waits, then finds these withdrawn.
    const leads = await notYetWithdrawn(trx, lead)
      .orderBy('id')
      .forUpdate()
      .select<PersonLead[]>('id', 'email', 'telefono', 'marketing_consent_version');
    const leadIds = leads.map((row) => row.id);
    let crmDeliveries: { id: number; leadId: number }[] = [];
    if (leads.length > 0) {
      await trx('ebook_requests').whereIn('id', leadIds).update({ marketing_consent_withdrawn_at: trx.fn.now() });
      await trx('gdpr_consents').insert(
        leads.map((row) => ({
          email: row.email,
          email_hash: emailHash(row.email),
          consent_type: 'marketing',
          consented: false,
          // The version withdrawn; a lead that never gave it refuses the current text.
          consent_version: row.marketing_consent_version ?? MARKETING_CONSENT_VERSION,
          ip_address: origin.ipAddress,
          user_agent: origin.userAgent,
          lead_id: row.id,
        })),
      );
      crmDeliveries = await insertCrmDeliveries(
        trx,
        leadIds.map((id) => ({ leadId: id, subjectLeadId: id, event: 'lead.consent_withdrawn' as const })),
      );
      // Nothing more of these leads goes to the ad platforms (decision 061).
      await skipUnsentConversionUploads(trx, leadIds, CONVERSION_SKIP_REASONS.withdrawn);
    }
    const suppressed = await recordSuppression(trx, suppressionHashSecret, [lead, ...leads], {
      source: origin.source,
      refresh: leads.length > 0,
    });
    if (leads.length === 0 && !suppressed) return { outcome: 'already' };
    return { outcome: 'withdrawn', leadIds, crmDeliveries };
  });
}

/**
 * Whether a withdrawal for this lead would still do something (what the link's page asks
 * before showing its button); null when the lead does not exist.
 */
export async function withdrawalPending(db: Knex, suppressionHashSecret: string, leadId: number) {
  const lead = await db('ebook_requests').where({ id: leadId }).first<(Contact & { id: number }) | undefined>('id', 'email', 'telefono');
  if (!lead) return null;
  if (await notYetWithdrawn(db, lead).first('id')) return true;
  const hashes = contactHashesOf(suppressionHashSecret, lead);
  const suppressed = await db('marketing_suppressions').whereIn('contact_hash', [hashes.email, hashes.phone]).count<{ n: number }[]>({ n: '*' });
  return Number(suppressed[0]?.n ?? 0) < 2;
}
