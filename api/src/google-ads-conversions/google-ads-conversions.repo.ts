import type { Knex } from 'knex';
import { GOOGLE_ADS_WINDOW_DAYS } from '@guida/shared/google-ads-conversions';
import { googleAdsCandidatePage } from '@guida/shared/server/google-ads-candidates';
import type { GoogleAdsConversion } from './google-ads-csv';

const DAY_MS = 24 * 3600 * 1000;

export interface ConversionNames {
  lead: string;
  verifiedLead: string;
}

/**
 * The conversions Google Ads may get as of `now`, read page by page in lead order (a
 * page may hold none; null at the end), so a large file never sits in memory: of the
 * leads of the last 90 days (Google refuses older clicks, and a click precedes its lead)
 * that Google may get (googleAdsCandidatePage: a usable Google click id, the consent rule
 * of decision 061, not a repeat), one conversion for the request, at the lead's creation,
 * and one more once the lead is verified (decision 059), at its verification.
 */
export function googleAdsConversionPages(
  db: Knex,
  options: { suppressionHashSecret: string; names: ConversionNames; now: Date; pageSize?: number },
) {
  const { now, names, pageSize = 500 } = options;
  const since = new Date(now.getTime() - GOOGLE_ADS_WINDOW_DAYS * DAY_MS);
  let afterId: number | null = 0;
  return async (): Promise<GoogleAdsConversion[] | null> => {
    if (afterId === null) return null;
    const page = await googleAdsCandidatePage(db, {
      suppressionHashSecret: options.suppressionHashSecret,
      since,
      until: now,
      afterId,
      pageSize,
    });
    afterId = page.lastId;
    return page.candidates.flatMap((lead) => {
      const common = { leadId: lead.id, clickId: lead.clickId, adUserData: lead.adUserData, adPersonalization: lead.adPersonalization };
      const conversions: GoogleAdsConversion[] = [{ ...common, event: 'lead', name: names.lead, at: lead.createdAt }];
      if (lead.verifiedAt && lead.verifiedAt <= now) {
        conversions.push({ ...common, event: 'verified_lead', name: names.verifiedLead, at: lead.verifiedAt });
      }
      return conversions;
    });
  };
}
