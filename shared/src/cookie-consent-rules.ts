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
export const COOKIE_CONSENT_VERSION = '1.2';

/**
 * Google Consent Mode v2's states, as each lead records `ad_user_data` and
 * `ad_personalization`: both follow the marketing cookie choice in force when the lead
 * was sent, 'denied' without one (decision 049).
 */
export const AD_CONSENT_STATES = ['granted', 'denied'] as const;
export type AdConsentState = (typeof AD_CONSENT_STATES)[number];
