import type { AdConsentState } from '@guida/shared/cookie-consent-rules';
import { GOOGLE_ADS_TIME_ZONE } from '@guida/shared/google-ads-conversions';
import type { ConversionEvent } from '@guida/shared/jobs/conversions';
import { csvCell, operatorDateTime } from '@guida/shared/server/csv';
import type { ClickId, ClickIdKind } from '@guida/shared/server/google-ads-candidates';

/**
 * Google Ads' file of conversions from clicks (the "click conversions" template, decision
 * 062): a parameters line naming the time zone, a header Google matches by name, then one
 * conversion per line. Comma-separated, UTF-8 without BOM (not the Italian-spreadsheet CSV
 * of csv.ts: Google reads this file, not Excel). Each line carries exactly one of the three
 * click ids: Google refuses a conversion with two.
 */
export const GOOGLE_ADS_PARAMETERS_LINE = `Parameters:TimeZone=${GOOGLE_ADS_TIME_ZONE}`;
export const GOOGLE_ADS_HEADER = [
  'Google Click ID',
  'GBRAID',
  'WBRAID',
  'Conversion Name',
  'Conversion Time',
  'Conversion Value',
  'Conversion Currency',
  // Consent Mode v2 as the lead recorded it (decision 049), in the template's words.
  'Ad User Data',
  'Ad Personalization',
] as const;

const CLICK_ID_COLUMNS: readonly ClickIdKind[] = ['gclid', 'gbraid', 'wbraid'];

export interface GoogleAdsConversion {
  leadId: number;
  event: ConversionEvent;
  clickId: ClickId;
  name: string;
  at: Date;
  adUserData: AdConsentState;
  adPersonalization: AdConsentState;
}

const consentWord = (state: AdConsentState) => (state === 'granted' ? 'Granted' : 'Denied');

/** One line of the file (CRLF-terminated), every cell defused against formulas by csvCell. */
export function googleAdsLine(conversion: GoogleAdsConversion, money: { value: string | undefined; currency: string }) {
  const cells = [
    ...CLICK_ID_COLUMNS.map((kind) => (conversion.clickId.kind === kind ? conversion.clickId.value : null)),
    conversion.name,
    // yyyy-MM-dd HH:mm:ss on Italy's clock, summer time included: the zone of the parameters line.
    operatorDateTime(conversion.at),
    money.value,
    money.currency,
    consentWord(conversion.adUserData),
    consentWord(conversion.adPersonalization),
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The parameters line and the header: the whole file when there is no conversion. */
export const GOOGLE_ADS_FILE_START = `${GOOGLE_ADS_PARAMETERS_LINE}\r\n${GOOGLE_ADS_HEADER.join(',')}\r\n`;
