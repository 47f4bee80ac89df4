/**
 * The front door of the Google Ads offline conversions (decision 062): the scheduled-upload
 * URL, the file itself for the admin's download, and the configuration it reads.
 */
export { googleAdsEnv, requireGoogleAdsExportCredentials } from './google-ads-env';
export { googleAdsConversionsFile } from './google-ads-conversions.service';
export { googleAdsConversionsRouter } from './google-ads-conversions.routes';
