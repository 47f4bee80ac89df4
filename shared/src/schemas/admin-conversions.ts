/**
 * The admin's "Conversioni" tab (GET /api/admin/conversions/google-ads, decision 062): how
 * the Google Ads file is set up, and what Google's scheduled fetches took so far.
 */
export interface GoogleAdsConversionsSummary {
  /** The conversion actions' names in Google Ads, as the file writes them. */
  conversionNames: { lead: string; verifiedLead: string };
  /** The value of each conversion (text, a dot for decimals); null: the conversion action's own. */
  value: string | null;
  currency: string;
  /** Conversions of the last this-many days (Google refuses older clicks). */
  windowDays: number;
  /** The zone of the file's parameters line and of its times. */
  timeZone: string;
  /** The URL to give Google Ads' scheduled upload; `configured` false while its credentials are unset (the URL answers 404). */
  scheduledFetch: { configured: boolean; url: string };
  /** Conversions Google's fetches have taken, each counted once however often fetched, and the latest fetch that served any. */
  fetched: { leads: number; verifiedLeads: number; lastAt: string | null };
}
