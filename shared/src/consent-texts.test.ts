import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CURRENT_CONSENT_VERSIONS,
  RECORDED_CONSENT_TEXT_HASHES,
  cookieConsentText,
  formConsentTexts,
} from './consent-texts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('consent texts and their versions', () => {
  it('changing the form consent texts requires a new PRIVACY_CONSENT_VERSION', () => {
    // If this fails you changed privacyConsentText or marketingConsentText: bump
    // PRIVACY_CONSENT_VERSION (lead-rules.ts) and record the new hashes under it.
    expect(RECORDED_CONSENT_TEXT_HASHES.form[CURRENT_CONSENT_VERSIONS.form]).toEqual({
      privacy: sha256(formConsentTexts.privacy),
      marketing: sha256(formConsentTexts.marketing),
    });
  });

  it('changing the cookie banner or panel texts requires a new COOKIE_CONSENT_VERSION', () => {
    // If this fails you changed cookieTexts (messages.ts): bump COOKIE_CONSENT_VERSION
    // (cookie-consent-rules.ts) and record the new hash under it.
    expect(RECORDED_CONSENT_TEXT_HASHES.cookies[CURRENT_CONSENT_VERSIONS.cookies]).toBe(sha256(cookieConsentText));
  });

  it('never records the same text under two versions', () => {
    const form = Object.values(RECORDED_CONSENT_TEXT_HASHES.form).map((hashes) => `${hashes.privacy}/${hashes.marketing}`);
    expect(new Set(form).size).toBe(form.length);
    const cookies = Object.values(RECORDED_CONSENT_TEXT_HASHES.cookies);
    expect(new Set(cookies).size).toBe(cookies.length);
  });
});
