import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: HMAC-SHA-1, 6 digits, 30-second steps
 * (the defaults of Google Authenticator, Microsoft Authenticator, FreeOTP, 1Password…).
 * The codes themselves come from `otpauth`; this module only fixes the parameters and
 * turns a match into the step it belongs to, which is what replay protection stores.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step either side: a phone clock 30 s off, or a code typed as it changes, still works. */
export const TOTP_WINDOW = 1;

const totpOf = (secret: string, digits = TOTP_DIGITS, label = 'admin', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new random secret of 160 bits (RFC 4226's recommended length), in base32. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The 30-second step a moment (ms since the epoch) falls in. */
export const totpStep = (atMs: number) => Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);

/** The code of `secret` at a moment; `digits` other than 6 only for RFC 6238's test vectors. */
export const totpCode = (secret: string, atMs: number, digits = TOTP_DIGITS) => totpOf(secret, digits).generate({ timestamp: atMs });

/** The otpauth:// URI the QR code carries (issuer and label are what the app lists). */
export const totpUri = (secret: string, account: { issuer: string; label: string }) =>
  totpOf(secret, TOTP_DIGITS, account.label, account.issuer).toString();

/** The step `code` belongs to, within TOTP_WINDOW steps of `atMs`; null when it is no code of this secret now. */
export function matchingStep(secret: string, code: string, atMs: number): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: atMs, window: TOTP_WINDOW });
  return delta === null ? null : totpStep(atMs) + delta;
}
