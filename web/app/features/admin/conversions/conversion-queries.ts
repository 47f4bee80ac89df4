import { GOOGLE_ADS_ADMIN_EXPORT_PATH } from '@guida/shared/google-ads-conversions';
import type { GoogleAdsConversionsSummary } from '@guida/shared/schemas/admin-conversions';
import { FRESH_MS, useAdminQuery } from '../admin-api';

const GOOGLE_ADS_URL = '/api/admin/conversions/google-ads';
/** The Google Ads file as of now, downloaded with the admin's session (decision 062). */
export const googleAdsExportUrl = GOOGLE_ADS_ADMIN_EXPORT_PATH;

/** How the Google Ads file is set up and what Google's scheduled fetches took so far. */
export function useGoogleAdsConversions() {
  return useAdminQuery<GoogleAdsConversionsSummary>(GOOGLE_ADS_URL, { staleTime: FRESH_MS });
}
