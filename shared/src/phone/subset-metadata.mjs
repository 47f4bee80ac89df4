// @ts-check
/**
 * Reduces libphonenumber-js's mobile metadata to the two countries we send SMS to,
 * so the browser bundle carries a few kilobytes instead of ~100 kB.
 * Used by scripts/generate-phone-metadata.mjs and by the test that keeps the file fresh.
 */
export const SMS_COUNTRIES = ['IT', 'CH'];

/** @param {{ version: number, country_calling_codes: Record<string, string[]>, countries: Record<string, unknown> }} full */
export function subsetMetadata(full) {
  /** @type {Record<string, string[]>} */
  const callingCodes = {};
  /** @type {Record<string, unknown>} */
  const countries = {};
  for (const [code, members] of Object.entries(full.country_calling_codes)) {
    if (!members.some((country) => SMS_COUNTRIES.includes(country))) continue;
    callingCodes[code] = members;
    // Countries sharing a calling code (Vatican with Italy) are needed to parse it.
    for (const country of members) countries[country] = full.countries[country];
  }
  return { version: full.version, country_calling_codes: callingCodes, countries, nonGeographic: {} };
}
