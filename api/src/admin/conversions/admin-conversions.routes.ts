import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { googleAdsFetchTotals } from '@guida/shared/deliveries/google-ads-fetches';
import {
  GOOGLE_ADS_EXPORT_PATH,
  GOOGLE_ADS_TIME_ZONE,
  GOOGLE_ADS_WINDOW_DAYS,
} from '@guida/shared/google-ads-conversions';
import type { GoogleAdsConversionsSummary } from '@guida/shared/schemas/admin-conversions';
import type { ApiDeps } from '../../dependencies';
import { googleAdsConversionsFile } from '../../google-ads-conversions';
import { auditAdminAction } from '../audit-log';
import { operatorDay } from '../reports/report-range';

/**
 * Conversions for the ad platforms (decision 062): how the Google Ads file is set up and
 * what Google's scheduled fetches took, and the file itself for an admin to download
 * (audited; no fetch recorded: the product cannot know whether it is uploaded).
 */
export function adminConversionsRouter(deps: ApiDeps) {
  const router = Router();
  const { config } = deps;

  router.get('/conversions/google-ads', async (_req, res) => {
    const totals = await googleAdsFetchTotals(deps.db);
    const answer: GoogleAdsConversionsSummary = {
      conversionNames: { lead: config.GOOGLE_ADS_LEAD_CONVERSION_NAME, verifiedLead: config.GOOGLE_ADS_VERIFIED_CONVERSION_NAME },
      value: config.GOOGLE_ADS_CONVERSION_VALUE ?? null,
      currency: config.GOOGLE_ADS_CONVERSION_CURRENCY,
      windowDays: GOOGLE_ADS_WINDOW_DAYS,
      timeZone: GOOGLE_ADS_TIME_ZONE,
      scheduledFetch: {
        configured: Boolean(config.GOOGLE_ADS_EXPORT_USERNAME && config.GOOGLE_ADS_EXPORT_PASSWORD),
        url: `${config.PUBLIC_BASE_URL}${GOOGLE_ADS_EXPORT_PATH}`,
      },
      fetched: {
        leads: totals.conversions.lead,
        verifiedLeads: totals.conversions.verified_lead,
        lastAt: totals.lastFetchedAt?.toISOString() ?? null,
      },
    };
    res.json(answer);
  });

  router.get('/conversions/google-ads.csv', async (req, res) => {
    await auditAdminAction(deps.db, req, { action: 'export_google_ads_conversions' });
    // The operator's day, as every admin file is named: after 23:00 UTC Italy is already on the next one.
    const day = operatorDay(deps.now?.() ?? new Date());
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="conversioni-google-ads-${day}.csv"`,
    });
    await pipeline(googleAdsConversionsFile(deps, { fetchedByGoogle: false }), res).catch((error: unknown) => {
      // Headers are gone: the broken download is all the admin can see; the log says why.
      deps.logger.error({ err: (error as Error).message }, 'Google Ads conversions export interrupted');
      res.destroy();
    });
  });

  return router;
}
