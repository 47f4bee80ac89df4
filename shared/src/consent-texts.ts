/**
 * The consent texts whose SHA-256 is stored with every consent, their current versions,
 * and the record of every version ever shown. The record is what lets us prove, years
 * later, which words a stored consent hash stands for; consent-texts.test.ts fails when
 * a text changes and its version does not.
 */
import { COOKIE_CONSENT_VERSION } from './cookie-consent-rules';
import { MARKETING_CONSENT_VERSION, PRIVACY_CONSENT_VERSION } from './lead-rules';
import { cookieTexts, marketingConsentText, privacyConsentText } from './messages';

/** The banner and panel as shown, in one canonical string (keys in declaration order). */
export const cookieConsentText = JSON.stringify(cookieTexts);

/** Each purpose a visitor consents to: its text as shown, and the version of that text. */
export const CONSENT_TEXTS = {
  privacy: { text: privacyConsentText, version: PRIVACY_CONSENT_VERSION },
  marketing: { text: marketingConsentText, version: MARKETING_CONSENT_VERSION },
  cookies: { text: cookieConsentText, version: COOKIE_CONSENT_VERSION },
} as const;
export type ConsentPurpose = keyof typeof CONSENT_TEXTS;

/**
 * Every version ever shown, per purpose, and the SHA-256 (hex) of its text. Append a
 * version when a text changes; never edit or remove a line, stored consents point at it.
 * (Up to privacy 1.0 the two form texts shared one version; their hashes are unchanged.)
 */
export const RECORDED_CONSENT_TEXT_HASHES: Record<ConsentPurpose, Record<string, string>> = {
  privacy: {
    '1.0': '9bd7801e6147f0a68bcf04b352bafeb93fbe1a5c807b90768c3495df82732e41',
  },
  marketing: {
    '1.0': '76af0a53dc126a6b496bec22aefbfd23a14c9967131bf96d1eda33b1b1ed8c58',
  },
  cookies: {
    '1.0': 'f83f0aa5bc25d57c4d05d06566a4fde2268960a41e383a4d8a715bb9f1f006fb',
    // The banner says what its × does (Garante 2021).
    '1.1': '4ee7d9bce529bcbffb327e7fd498e91988997a8f3b6046bb293e887243947a12',
    // Marketing cookies also tell which ad the visitor came from (decision 049).
    '1.2': '847a22d92b64a7ce1672019cc083dc67fee03695ad6d38f16cb2d2e2155e6d11',
  },
};
