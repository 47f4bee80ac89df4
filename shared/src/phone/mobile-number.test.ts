import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseMobileNumber } from './mobile-number';
import { subsetMetadata } from './subset-metadata.mjs';

describe('parseMobileNumber', () => {
  it.each([
    ['+39 347 123 4567', '+393471234567', 'IT'],
    ['3471234567', '+393471234567', 'IT'],
    ['0039 347-123-4567', '+393471234567', 'IT'],
    ['+41 79 123 45 67', '+41791234567', 'CH'],
    ['079 123 45 67', '+41791234567', 'CH'],
    ['0041 76 123 45 67', '+41761234567', 'CH'],
  ])('reads %s as %s', (input, e164, country) => {
    expect(parseMobileNumber(input)).toEqual({ e164, country });
  });

  it.each([
    '06 1234 5678', // Italian landline
    '+41 44 668 18 00', // Swiss landline
    '+44 7700 900123', // UK mobile
    '+33 6 12 34 56 78', // French mobile
    '+39 899 123 456', // premium rate
    '347',
    'non ho un numero',
  ])('refuses %s', (input) => {
    expect(parseMobileNumber(input)).toBeNull();
  });
});

describe('the IT/CH phone metadata', () => {
  it('matches the installed libphonenumber-js (run scripts/generate-phone-metadata.mjs after upgrading it)', () => {
    const require = createRequire(import.meta.url);
    const full = JSON.parse(readFileSync(require.resolve('libphonenumber-js/metadata.mobile.json'), 'utf8'));
    const committed = JSON.parse(readFileSync(new URL('./metadata.it-ch.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(subsetMetadata(full));
  });
});
