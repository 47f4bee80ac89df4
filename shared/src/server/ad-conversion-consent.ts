import type { Knex } from 'knex';
import { suppressionsOf, type Contact } from './marketing-suppression';

/**
 * Whether a lead's data may go to an ad platform (Meta's Conversions API, Google Ads'
 * offline conversions; decision 061): the one rule, for every conversion of every
 * platform. All three must hold:
 *
 * - the visitor accepted the marketing cookies when the lead was sent, as the server
 *   recorded it (`ad_user_data = 'granted'`, decision 049);
 * - the person has not withdrawn the marketing consent since (`marketing_consent_withdrawn_at`,
 *   decision 048: set on every lead with the same address or number);
 * - neither the lead's address nor its number is on the suppression list (a withdrawal
 *   made for another lead, possibly erased since).
 *
 * The first two are columns of the lead, checked in SQL (`adConversionConsentSql`). The
 * suppression list is keyed by an HMAC whose key never reaches the database (decision
 * 048), so the third is checked in the process (`leadsWithAdConversionConsent`), right
 * before anything is sent or exported.
 */

/** The two column conditions, for a WHERE clause over `ebook_requests` aliased `alias` (an identifier of ours, never input). */
export function adConversionConsentSql(alias: string) {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`not a table alias: ${alias}`);
  return `(${alias}.ad_user_data = 'granted' AND ${alias}.marketing_consent_withdrawn_at IS NULL)`;
}

/** What the rule reads of a lead. */
export interface AdConsentFacts extends Contact {
  id: number;
  ad_user_data: string;
  marketing_consent_withdrawn_at: Date | null;
}

/** The column conditions of adConversionConsentSql, for a lead already read. */
export const adConsentColumnsAllow = (lead: Pick<AdConsentFacts, 'ad_user_data' | 'marketing_consent_withdrawn_at'>) =>
  lead.ad_user_data === 'granted' && lead.marketing_consent_withdrawn_at === null;

/**
 * The leads of `leads` whose data may go to an ad platform now: the column conditions and
 * the suppression list (one lookup by primary key for the whole batch). Order is kept.
 */
export async function leadsWithAdConversionConsent<L extends AdConsentFacts>(
  db: Knex,
  suppressionHashSecret: string,
  leads: readonly L[],
): Promise<L[]> {
  const candidates = leads.filter(adConsentColumnsAllow);
  if (candidates.length === 0) return [];
  const suppressed = await suppressionsOf(db, suppressionHashSecret, candidates);
  return candidates.filter((lead) => !suppressed.has(lead.id));
}
