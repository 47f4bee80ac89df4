import { z } from 'zod';
import {
  DEFAULT_LEAD_CONVERSION_NAME,
  DEFAULT_VERIFIED_CONVERSION_NAME,
  MIN_EXPORT_PASSWORD_LENGTH,
} from '@guida/shared/google-ads-conversions';
import { startsAsFormula } from '@guida/shared/server/csv';

/**
 * A conversion action's name exactly as it is in Google Ads (the file names the action by
 * it): printable, no line breaks, at most 100 characters as Google allows, and not starting
 * as a spreadsheet formula: the file's cells defuse those with an apostrophe (csv.ts), so
 * Google would look for a different name and match nothing.
 */
const conversionName = (fallback: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(100, { error: 'must be at most 100 characters (Google Ads conversion action names)' })
    .regex(/^[^\p{Cc}]+$/u, { error: 'must be one line of printable characters' })
    .refine((name) => !startsAsFormula(name), {
      error: 'must not start with = + - or @ (the file would put an apostrophe before it and Google Ads would match no conversion action): rename the action in Google Ads',
    })
    .default(fallback);

/** The least distinct characters a production password must have (refuses "aaaa…", "1212…"). */
const MIN_DISTINCT_CHARACTERS = 8;

/**
 * Google Ads offline conversions (decision 062): the names of the two conversion actions,
 * the value and currency of each conversion, and the credentials of the scheduled-upload
 * URL (GET /api/conversions/google-ads.csv, off while unset).
 */
export const googleAdsEnv = {
  GOOGLE_ADS_LEAD_CONVERSION_NAME: conversionName(DEFAULT_LEAD_CONVERSION_NAME),
  GOOGLE_ADS_VERIFIED_CONVERSION_NAME: conversionName(DEFAULT_VERIFIED_CONVERSION_NAME),
  /** Unset: the column stays empty and Google Ads uses the conversion action's own value. */
  GOOGLE_ADS_CONVERSION_VALUE: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, { error: 'must be a number with a dot for decimals, e.g. 2.50 (or unset)' })
    .optional(),
  GOOGLE_ADS_CONVERSION_CURRENCY: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code in capitals, e.g. EUR or CHF' })
    .default('EUR'),
  /** Basic-auth user name Google Ads sends (a colon would end it early: refused). */
  GOOGLE_ADS_EXPORT_USERNAME: z
    .string()
    .regex(/^[^:\p{Cc}]{1,100}$/u, { error: 'must be 1 to 100 printable characters without a colon' })
    .optional(),
  GOOGLE_ADS_EXPORT_PASSWORD: z
    .string()
    .regex(/^[^\p{Cc}]{1,200}$/u, { error: 'must be 1 to 200 printable characters' })
    .optional(),
};

interface GoogleAdsExportSettings {
  NODE_ENV: string;
  GOOGLE_ADS_EXPORT_USERNAME?: string | undefined;
  GOOGLE_ADS_EXPORT_PASSWORD?: string | undefined;
}

/**
 * Both credentials or neither (one alone is a half-done set-up, found at start, not when
 * Google's first fetch fails); in production a password an attacker could guess is refused.
 */
export function requireGoogleAdsExportCredentials(value: GoogleAdsExportSettings, ctx: z.RefinementCtx) {
  const { GOOGLE_ADS_EXPORT_USERNAME: username, GOOGLE_ADS_EXPORT_PASSWORD: password } = value;
  if (Boolean(username) !== Boolean(password)) {
    ctx.addIssue({
      code: 'custom',
      path: [username ? 'GOOGLE_ADS_EXPORT_PASSWORD' : 'GOOGLE_ADS_EXPORT_USERNAME'],
      message: 'set both GOOGLE_ADS_EXPORT_USERNAME and GOOGLE_ADS_EXPORT_PASSWORD, or neither (the URL is then off)',
    });
    return;
  }
  if (!password || value.NODE_ENV !== 'production') return;
  const weak =
    password.length < MIN_EXPORT_PASSWORD_LENGTH ||
    new Set(password).size < MIN_DISTINCT_CHARACTERS ||
    password.toLowerCase().includes(username!.toLowerCase());
  if (weak) {
    ctx.addIssue({
      code: 'custom',
      path: ['GOOGLE_ADS_EXPORT_PASSWORD'],
      message: `too weak for production: at least ${MIN_EXPORT_PASSWORD_LENGTH} random characters (e.g. openssl rand -base64 24), not containing the user name`,
    });
  }
}
