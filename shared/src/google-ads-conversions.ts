/**
 * Google Ads offline conversions (decision 062): the facts the API's file, the scheduled
 * URL and the admin share. Browser-safe (no server code): the admin shows the window and
 * the URL.
 */
import { OPERATOR_TIME_ZONE } from './analytics-rules';

export const DEFAULT_LEAD_CONVERSION_NAME = 'Richiesta guida';
export const DEFAULT_VERIFIED_CONVERSION_NAME = 'Lead verificato';

/** Google Ads refuses a conversion whose click is older than 90 days; a lead is never older than its click. */
export const GOOGLE_ADS_WINDOW_DAYS = 90;

/** The time zone the file declares, and in which every Conversion Time is written. */
export const GOOGLE_ADS_TIME_ZONE = OPERATOR_TIME_ZONE;

/** Where Google Ads' scheduled uploads fetch the file (with HTTP basic auth), under PUBLIC_BASE_URL. */
export const GOOGLE_ADS_EXPORT_PATH = '/api/conversions/google-ads.csv';
/** The admin's download of the same file, with the admin's session. */
export const GOOGLE_ADS_ADMIN_EXPORT_PATH = '/api/admin/conversions/google-ads.csv';

export const MIN_EXPORT_PASSWORD_LENGTH = 16;

export const googleAdsMessages = {
  /** 401 of the scheduled URL, without or with wrong credentials. */
  unauthorized: 'Credenziali mancanti o errate per il file delle conversioni Google Ads.',
  /** 403 of the scheduled URL reached over plain HTTP in production. */
  httpsRequired: 'Il file delle conversioni Google Ads si scarica solo tramite HTTPS.',
  /** What a lead's detail shows of each conversion the URL served (conversion_uploads.response_summary). */
  fetchedByGoogleAds: 'Scaricato da Google Ads (caricamento programmato)',
} as const;
