import { describe, expect, it } from 'vitest';
import { matchingStep, newTotpSecret, totpCode, totpStep, totpUri } from './totp';

/** RFC 6238's seed for HMAC-SHA-1: the ASCII "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('gives the RFC 6238 test vector (SHA-1) at T = %i s', (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(code);
    // The apps' 6 digits are the same value modulo 10^6.
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(2));
  });

  it('matches a code one step either side, and names its step; two steps off, or another code, is no match', () => {
    const at = 1_234_567_890_000;
    const step = totpStep(at);
    for (const delta of [-1, 0, 1]) {
      expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at + delta * 30_000), at)).toBe(step + delta);
    }
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at - 60_000), at)).toBeNull();
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, at + 60_000), at)).toBeNull();
    const wrong = String((Number(totpCode(RFC_SECRET, at)) + 1) % 1_000_000).padStart(6, '0');
    expect(matchingStep(RFC_SECRET, wrong, at)).toBeNull();
  });

  it('makes 160-bit secrets and an otpauth URI the apps read (SHA1, 6 digits, 30 s)', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, { issuer: 'Guida Finanza', label: 'operatrice@localhost:3000' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Guida Finanza',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
