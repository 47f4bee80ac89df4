import { describe, expect, it } from 'vitest';
import { parseEnv } from '@guida/shared/config';
import { apiEnvSchema } from '../config';
import { PRODUCTION_ENV as production, apiConfigProblems as problems } from '../testing/api-config';

const base = { SESSION_SECRET: 'a'.repeat(32) };

describe('Google Ads configuration (decision 062)', () => {
  it('has the documented defaults: two conversion names, no value, euros, the URL off', () => {
    const config = parseEnv(apiEnvSchema, base);
    expect(config).toMatchObject({
      GOOGLE_ADS_LEAD_CONVERSION_NAME: 'Richiesta guida',
      GOOGLE_ADS_VERIFIED_CONVERSION_NAME: 'Lead verificato',
      GOOGLE_ADS_CONVERSION_CURRENCY: 'EUR',
    });
    expect([config.GOOGLE_ADS_CONVERSION_VALUE, config.GOOGLE_ADS_EXPORT_USERNAME, config.GOOGLE_ADS_EXPORT_PASSWORD]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses a value, currency or name Google Ads would not take', () => {
    expect(problems({ ...base, GOOGLE_ADS_CONVERSION_VALUE: '2,50' })).toEqual([
      'GOOGLE_ADS_CONVERSION_VALUE: must be a number with a dot for decimals, e.g. 2.50 (or unset)',
    ]);
    expect(problems({ ...base, GOOGLE_ADS_CONVERSION_CURRENCY: 'euro' })).toEqual([
      'GOOGLE_ADS_CONVERSION_CURRENCY: must be an ISO 4217 code in capitals, e.g. EUR or CHF',
    ]);
    expect(problems({ ...base, GOOGLE_ADS_LEAD_CONVERSION_NAME: 'x'.repeat(101) })).toEqual([
      'GOOGLE_ADS_LEAD_CONVERSION_NAME: must be at most 100 characters (Google Ads conversion action names)',
    ]);
    expect(parseEnv(apiEnvSchema, { ...base, GOOGLE_ADS_CONVERSION_VALUE: '2.50', GOOGLE_ADS_CONVERSION_CURRENCY: 'CHF' })).toMatchObject({
      GOOGLE_ADS_CONVERSION_VALUE: '2.50',
      GOOGLE_ADS_CONVERSION_CURRENCY: 'CHF',
    });
  });

  it('refuses a conversion name the file would defuse as a formula, so Google Ads would not find the action', () => {
    const formula =
      'must not start with = + - or @ (the file would put an apostrophe before it and Google Ads would match no conversion action): rename the action in Google Ads';
    for (const name of ['=Lead', '+Lead', '-Lead', '@Lead', '  =Lead']) {
      expect(problems({ ...base, GOOGLE_ADS_VERIFIED_CONVERSION_NAME: name })).toEqual([`GOOGLE_ADS_VERIFIED_CONVERSION_NAME: ${formula}`]);
    }
    expect(problems({ ...base, GOOGLE_ADS_LEAD_CONVERSION_NAME: '-10% lead' })).toEqual([`GOOGLE_ADS_LEAD_CONVERSION_NAME: ${formula}`]);
    // Inside the name those characters are fine: only the first would be defused.
    expect(parseEnv(apiEnvSchema, { ...base, GOOGLE_ADS_LEAD_CONVERSION_NAME: 'Lead = richiesta + SMS @ guida' })).toMatchObject({
      GOOGLE_ADS_LEAD_CONVERSION_NAME: 'Lead = richiesta + SMS @ guida',
    });
  });

  it('wants both credentials of the URL or neither, and a user name without a colon', () => {
    expect(problems({ ...base, GOOGLE_ADS_EXPORT_USERNAME: 'google' })).toEqual([
      'GOOGLE_ADS_EXPORT_PASSWORD: set both GOOGLE_ADS_EXPORT_USERNAME and GOOGLE_ADS_EXPORT_PASSWORD, or neither (the URL is then off)',
    ]);
    expect(problems({ ...base, GOOGLE_ADS_EXPORT_PASSWORD: 'k8Zq2pW9vR4xT7mB3nL6' })).toEqual([
      'GOOGLE_ADS_EXPORT_USERNAME: set both GOOGLE_ADS_EXPORT_USERNAME and GOOGLE_ADS_EXPORT_PASSWORD, or neither (the URL is then off)',
    ]);
    expect(problems({ ...base, GOOGLE_ADS_EXPORT_USERNAME: 'google:ads', GOOGLE_ADS_EXPORT_PASSWORD: 'k8Zq2pW9vR4xT7mB3nL6' })).toEqual([
      'GOOGLE_ADS_EXPORT_USERNAME: must be 1 to 100 printable characters without a colon',
    ]);
  });

  it('refuses a weak password at start in production only, never naming it', () => {
    const weak = 'too weak for production: at least 16 random characters (e.g. openssl rand -base64 24), not containing the user name';
    for (const password of ['short-Pass1', 'aaaaaaaaaaaaaaaaaaaa', 'googleads-k8Zq2pW9vR4x']) {
      const found = problems({ ...production, GOOGLE_ADS_EXPORT_USERNAME: 'googleads', GOOGLE_ADS_EXPORT_PASSWORD: password });
      expect(found).toEqual([`GOOGLE_ADS_EXPORT_PASSWORD: ${weak}`]);
      expect(found.join('\n')).not.toContain(password);
      // Elsewhere (a laptop, a test) any password will do.
      expect(problems({ ...base, GOOGLE_ADS_EXPORT_USERNAME: 'googleads', GOOGLE_ADS_EXPORT_PASSWORD: password })).toEqual([]);
    }
    expect(problems({ ...production, GOOGLE_ADS_EXPORT_USERNAME: 'googleads', GOOGLE_ADS_EXPORT_PASSWORD: 'k8Zq2pW9vR4xT7mB3nL6' })).toEqual([]);
  });
});
