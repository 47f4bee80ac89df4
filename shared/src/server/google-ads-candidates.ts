import type { Knex } from 'knex';
import type { AdConsentState } from '../cookie-consent-rules';
import { adConversionConsentSql, leadsWithAdConversionConsent } from './ad-conversion-consent';
import { csvCell } from './csv';
import { verifiedAtSql } from './verified-lead-sql';

/**
 * Which leads Google Ads may get a conversion of (decision 062): the API's file serves
 * them, and the worker's alert on a file Google stopped fetching looks for one that waits.
 * One rule for both, so the alert never waits for a lead the file leaves out.
 */

export type ClickIdKind = 'gclid' | 'gbraid' | 'wbraid';

/**
 * Which Google click id of a lead the file names: the converting visit's (last touch)
 * before the first landing's; within a touch the gclid, then the wbraid (Google's id for
 * web conversions on iOS), then the gbraid (its id for app conversions).
 */
const PREFERENCE: readonly ClickIdKind[] = ['gclid', 'wbraid', 'gbraid'];

export interface GoogleClickIds {
  last: Record<ClickIdKind, string | null>;
  first: Record<ClickIdKind, string | null>;
}

export interface ClickId {
  kind: ClickIdKind;
  value: string;
}

/**
 * The lead's click id for Google, or null when it has none the file can carry as is: an
 * id a spreadsheet would run as a formula (starting with = + - @) is defused by csv.ts,
 * which would change it, so Google could match nothing with it; no id of Google's starts so.
 */
export function googleClickIdOf(ids: GoogleClickIds): ClickId | null {
  for (const touch of [ids.last, ids.first]) {
    const kind = PREFERENCE.find((candidate) => touch[candidate]);
    if (kind) {
      const value = touch[kind]!;
      return csvCell(value) === value ? { kind, value } : null;
    }
  }
  return null;
}

const GOOGLE_CLICK_COLUMNS = ['gclid', 'gbraid', 'wbraid', 'first_gclid', 'first_gbraid', 'first_wbraid'] as const;

interface CandidateRow {
  id: number;
  created_at: Date;
  verified_at: Date | null;
  email: string;
  telefono: string;
  ad_user_data: AdConsentState;
  ad_personalization: AdConsentState;
  marketing_consent_withdrawn_at: Date | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  first_gclid: string | null;
  first_gbraid: string | null;
  first_wbraid: string | null;
}

/** A lead Google Ads may get conversions of, with the click id the file names. */
export interface GoogleAdsCandidate {
  id: number;
  createdAt: Date;
  /** LEAST(reachable_at, engaged_at) (decision 059), or null while not verified. */
  verifiedAt: Date | null;
  clickId: ClickId;
  adUserData: AdConsentState;
  adPersonalization: AdConsentState;
}

/**
 * One page, in lead order after `afterId`, of the leads created in [since, until] that
 * Google Ads may get conversions of:
 *
 * - with a Google click id (gclid, gbraid or wbraid, of either touch) the file can carry;
 * - whose data may go to an ad platform (the one consent rule of decision 061: ad consent
 *   granted at submission, not withdrawn, not on the suppression list);
 * - that are not a repeat of another lead (the same phone within 24 hours is the same
 *   person: one conversion, decision 029).
 *
 * `lastId` is where the next page starts, null at the end; a page may hold no candidate.
 */
export async function googleAdsCandidatePage(
  db: Knex,
  options: { suppressionHashSecret: string; since: Date; until: Date; afterId: number; pageSize: number },
): Promise<{ candidates: GoogleAdsCandidate[]; lastId: number | null }> {
  const rows = await db('ebook_requests as l')
    .where('l.id', '>', options.afterId)
    .where('l.created_at', '>=', options.since)
    .where('l.created_at', '<=', options.until)
    .whereNull('l.repeat_of')
    .whereRaw(adConversionConsentSql('l'))
    .whereRaw(`coalesce(${GOOGLE_CLICK_COLUMNS.map((column) => `l.${column}`).join(', ')}) IS NOT NULL`)
    .orderBy('l.id')
    .limit(options.pageSize)
    .select<CandidateRow[]>([
      'l.id',
      'l.created_at',
      db.raw(`${verifiedAtSql('l')} AS verified_at`),
      'l.email',
      'l.telefono',
      'l.ad_user_data',
      'l.ad_personalization',
      'l.marketing_consent_withdrawn_at',
      ...GOOGLE_CLICK_COLUMNS.map((column) => `l.${column}`),
    ]);
  const lastId = rows.length === options.pageSize ? rows[rows.length - 1]!.id : null;
  const consenting = await leadsWithAdConversionConsent(db, options.suppressionHashSecret, rows);
  const candidates = consenting.flatMap((lead) => {
    const clickId = googleClickIdOf({
      last: { gclid: lead.gclid, gbraid: lead.gbraid, wbraid: lead.wbraid },
      first: { gclid: lead.first_gclid, gbraid: lead.first_gbraid, wbraid: lead.first_wbraid },
    });
    if (!clickId) return [];
    return [
      {
        id: lead.id,
        createdAt: lead.created_at,
        verifiedAt: lead.verified_at,
        clickId,
        adUserData: lead.ad_user_data,
        adPersonalization: lead.ad_personalization,
      },
    ];
  });
  return { candidates, lastId };
}
