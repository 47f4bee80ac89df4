import { Readable } from 'node:stream';
import { recordGoogleAdsFetch } from '@guida/shared/deliveries/google-ads-fetches';
import { googleAdsMessages } from '@guida/shared/google-ads-conversions';
import type { ApiDeps } from '../dependencies';
import { GOOGLE_ADS_FILE_START, googleAdsLine, type GoogleAdsConversion } from './google-ads-csv';
import { googleAdsConversionPages } from './google-ads-conversions.repo';

/**
 * The conversions file as of now, streamed page by page. `fetchedByGoogle`: Google Ads'
 * scheduled fetch, which records each conversion it serves in conversion_uploads (the
 * lead's detail shows it) and counts it on /metrics; the admin's download records nothing
 * (whether the admin then uploads it, the product cannot know).
 */
export function googleAdsConversionsFile(deps: ApiDeps, options: { fetchedByGoogle: boolean }) {
  const { config } = deps;
  const now = deps.now?.() ?? new Date();
  const nextPage = googleAdsConversionPages(deps.db, {
    suppressionHashSecret: config.SUPPRESSION_HASH_SECRET,
    names: { lead: config.GOOGLE_ADS_LEAD_CONVERSION_NAME, verifiedLead: config.GOOGLE_ADS_VERIFIED_CONVERSION_NAME },
    now,
  });
  const money = { value: config.GOOGLE_ADS_CONVERSION_VALUE, currency: config.GOOGLE_ADS_CONVERSION_CURRENCY };

  async function served(conversions: GoogleAdsConversion[]) {
    if (!options.fetchedByGoogle) return conversions;
    const recorded = await recordGoogleAdsFetch(deps.db, conversions, { at: now, summary: googleAdsMessages.fetchedByGoogleAds });
    const kept = new Set(recorded.map(({ leadId, event }) => `${leadId}:${event}`));
    const lines = conversions.filter(({ leadId, event }) => kept.has(`${leadId}:${event}`));
    for (const event of ['lead', 'verified_lead'] as const) {
      const count = lines.filter((conversion) => conversion.event === event).length;
      if (count > 0) deps.metrics.googleAdsConversionsServed(event, count);
    }
    return lines;
  }

  return Readable.from(
    (async function* lines() {
      yield GOOGLE_ADS_FILE_START;
      for (let page = await nextPage(); page !== null; page = await nextPage()) {
        const conversions = await served(page);
        if (conversions.length > 0) yield conversions.map((conversion) => googleAdsLine(conversion, money)).join('');
      }
    })(),
    { objectMode: false },
  );
}
