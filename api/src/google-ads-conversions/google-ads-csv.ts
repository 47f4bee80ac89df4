import type { AdConsentState } from '@guida/shared/cookie-consent-rules';
import { GOOGLE_ADS_TIME_ZONE } from '@guida/shared/google-ads-conversions';
import type { ConversionEvent } from '@guida/shared/jobs/conversions';
import { csvCell, operatorDateTime } from '@guida/shared/server/csv';

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

export type ClickIdKind = 'gclid' | 'gbraid' | 'wbraid';
const CLICK_ID_COLUMNS: readonly ClickIdKind[] = ['gclid', 'gbraid', 'wbraid'];

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
