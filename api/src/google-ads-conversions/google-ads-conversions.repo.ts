import type { Knex } from 'knex';
import type { AdConsentState } from '@guida/shared/cookie-consent-rules';
import { GOOGLE_ADS_WINDOW_DAYS } from '@guida/shared/google-ads-conversions';
import { adConversionConsentSql, leadsWithAdConversionConsent } from '@guida/shared/server/ad-conversion-consent';
import { verifiedAtSql } from '@guida/shared/server/verified-lead-sql';
import { googleClickIdOf, type GoogleAdsConversion } from './google-ads-csv';

const DAY_MS = 24 * 3600 * 1000;

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

const GOOGLE_CLICK_COLUMNS = ['gclid', 'gbraid', 'wbraid', 'first_gclid', 'first_gbraid', 'first_wbraid'] as const;

export interface ConversionNames {
  lead: string;
  verifiedLead: string;
}

/**
 * The conversions Google Ads may get as of `now`, read page by page in lead order (a
 * page may hold none; null at the end), so a large file never sits in memory:
 *
 * - leads of the last 90 days (Google refuses older clicks, and a click precedes its lead)
 *   with a Google click id (gclid, gbraid or wbraid, of either touch);
 * - whose data may go to an ad platform (the one consent rule of decision 061: ad consent
 *   granted at submission, not withdrawn, not on the suppression list);
 * - that are not a repeat of another lead (the same phone within 24 hours is the same
 *   person: one conversion, decision 029);
 * - one conversion for the request, at the lead's creation, and one more once the lead is
 *   verified (decision 059), at its verification.
 */
export function googleAdsConversionPages(
  db: Knex,
  options: { suppressionHashSecret: string; names: ConversionNames; now: Date; pageSize?: number },
) {
  const { now, names, pageSize = 500 } = options;
  const since = new Date(now.getTime() - GOOGLE_ADS_WINDOW_DAYS * DAY_MS);
  let lastId = 0;
  let done = false;
  return async (): Promise<GoogleAdsConversion[] | null> => {
    if (done) return null;
    const rows = await db('ebook_requests as l')
      .where('l.id', '>', lastId)
      .where('l.created_at', '>=', since)
      .where('l.created_at', '<=', now)
      .whereNull('l.repeat_of')
      .whereRaw(adConversionConsentSql('l'))
      .whereRaw(`coalesce(${GOOGLE_CLICK_COLUMNS.map((column) => `l.${column}`).join(', ')}) IS NOT NULL`)
      .orderBy('l.id')
      .limit(pageSize)
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
    if (rows.length === 0) return null;
    done = rows.length < pageSize;
    lastId = rows[rows.length - 1]!.id;
    const consenting = await leadsWithAdConversionConsent(db, options.suppressionHashSecret, rows);
    return consenting.flatMap((lead) => {
      const clickId = googleClickIdOf({
        last: { gclid: lead.gclid, gbraid: lead.gbraid, wbraid: lead.wbraid },
        first: { gclid: lead.first_gclid, gbraid: lead.first_gbraid, wbraid: lead.first_wbraid },
      });
      if (!clickId) return [];
      const common = { leadId: lead.id, clickId, adUserData: lead.ad_user_data, adPersonalization: lead.ad_personalization };
      const conversions: GoogleAdsConversion[] = [{ ...common, event: 'lead', name: names.lead, at: lead.created_at }];
      if (lead.verified_at && lead.verified_at <= now) {
        conversions.push({ ...common, event: 'verified_lead', name: names.verifiedLead, at: lead.verified_at });
      }
      return conversions;
    });
  };
}
