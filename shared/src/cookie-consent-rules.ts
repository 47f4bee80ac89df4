/** Cookie-consent facts web and API share, without zod (the browser's first load skips it). */
export interface CookieFlags {
  essential: true;
  analytics: boolean;
  marketing: boolean;
  preferences: boolean;
}

export const DEFAULT_COOKIE_FLAGS: CookieFlags = {
  essential: true,
  analytics: false,
  marketing: false,
  preferences: false,
};

/** A stored choice is valid for six months (Garante, cookie guidelines 2021). */
export const COOKIE_CONSENT_VALIDITY_DAYS = 183;

/**
 * Version of the cookie banner and panel texts, stored with every choice with the texts'
 * SHA-256; change it whenever cookieTexts (messages.ts) changes (consent-texts.test.ts).
 */
export const COOKIE_CONSENT_VERSION = '1.1';
