import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import metadataJson from './metadata.it-ch.json';

const metadata = metadataJson as unknown as MetadataJson;

export type SmsCountry = 'IT' | 'CH';

export interface MobileNumber {
  /** E.164, for example +393471234567 */
  e164: string;
  country: SmsCountry;
}

/**
 * Parses what a visitor typed into an Italian or Swiss mobile number. A number typed
 * without a prefix is tried as Italian, then as Swiss: Italian mobiles start with 3 and
 * Swiss ones with 07, so the two readings never collide. Anything else (landlines, other
 * countries, premium ranges) is refused, which also keeps SMS pumping out.
 */
export function parseMobileNumber(input: string): MobileNumber | null {
  for (const defaultCountry of ['IT', 'CH'] as const) {
    const parsed = parsePhoneNumberFromString(input, defaultCountry, metadata);
    if (!parsed?.isValid()) continue;
    const country = parsed.country;
    if ((country === 'IT' || country === 'CH') && parsed.getType() === 'MOBILE') {
      return { e164: parsed.number, country };
    }
  }
  return null;
}
