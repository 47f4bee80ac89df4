import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONSENT_TEXTS, RECORDED_CONSENT_TEXT_HASHES, type ConsentPurpose } from './consent-texts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Where each text and its version live, for the message of a failing test.
const WHERE: Record<ConsentPurpose, string> = {
  privacy: 'privacyConsentText (messages.ts) needs a new PRIVACY_CONSENT_VERSION (lead-rules.ts)',
  marketing: 'marketingConsentText (messages.ts) needs a new MARKETING_CONSENT_VERSION (lead-rules.ts)',
  cookies: 'cookieTexts (messages.ts) need a new COOKIE_CONSENT_VERSION (cookie-consent-rules.ts)',
};

describe('consent texts and their versions', () => {
  it.each(Object.keys(CONSENT_TEXTS) as ConsentPurpose[])(
    'changing the %s consent text requires a new version of it',
    (purpose) => {
      // If this fails you changed the text: bump its version and record the new hash under it.
      const { text, version } = CONSENT_TEXTS[purpose];
      expect(RECORDED_CONSENT_TEXT_HASHES[purpose][version], WHERE[purpose]).toBe(sha256(text));
    },
  );

  it('never records the same text under two versions of a purpose', () => {
    for (const versions of Object.values(RECORDED_CONSENT_TEXT_HASHES)) {
      const hashes = Object.values(versions);
      expect(new Set(hashes).size).toBe(hashes.length);
    }
  });

  it('gives each purpose a text of its own', () => {
    const current = Object.values(CONSENT_TEXTS).map(({ text }) => sha256(text));
    expect(new Set(current).size).toBe(current.length);
  });
});
