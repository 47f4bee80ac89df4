import { describe, expect, it } from 'vitest';
import { googleClickIdOf, type GoogleClickIds } from '@guida/shared/server/google-ads-candidates';
import { GOOGLE_ADS_FILE_START, googleAdsLine, type GoogleAdsConversion } from './google-ads-csv';

const none = { gclid: null, gbraid: null, wbraid: null };
const ids = (last: Partial<GoogleClickIds['last']>, first: Partial<GoogleClickIds['first']> = {}): GoogleClickIds => ({
  last: { ...none, ...last },
  first: { ...none, ...first },
});

const conversion = (overrides: Partial<GoogleAdsConversion> = {}): GoogleAdsConversion => ({
  leadId: 1,
  event: 'lead',
  clickId: { kind: 'gclid', value: 'Cj0KCQiA-abc_123' },
  name: 'Richiesta guida',
  at: new Date('2026-11-02T09:00:00Z'),
  adUserData: 'granted',
  adPersonalization: 'granted',
  ...overrides,
});
const money = { value: undefined, currency: 'EUR' };

describe('the Google Ads click conversions file', () => {
  it('starts with the time zone parameter and the template header', () => {
    expect(GOOGLE_ADS_FILE_START).toBe(
      'Parameters:TimeZone=Europe/Rome\r\n' +
        'Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization\r\n',
    );
  });

  it('writes each time as yyyy-MM-dd HH:mm:ss on Italy’s clock, summer time included', () => {
    const at = (iso: string) => googleAdsLine(conversion({ at: new Date(iso) }), money).split(',')[4];
    // Winter time, UTC+1.
    expect(at('2026-11-02T09:00:00Z')).toBe('2026-11-02 10:00:00');
    expect(at('2026-01-31T23:30:05Z')).toBe('2026-02-01 00:30:05');
    // Summer time, UTC+2, from the last Sunday of March to the last Sunday of October.
    expect(at('2026-07-15T21:59:59Z')).toBe('2026-07-15 23:59:59');
    expect(at('2026-03-29T00:59:59Z')).toBe('2026-03-29 01:59:59');
    expect(at('2026-03-29T01:00:00Z')).toBe('2026-03-29 03:00:00');
    expect(at('2026-10-25T00:59:59Z')).toBe('2026-10-25 02:59:59');
    expect(at('2026-10-25T01:00:00Z')).toBe('2026-10-25 02:00:00');
  });

  it('puts the click id in its own column and leaves the other two empty', () => {
    expect(googleAdsLine(conversion(), money)).toBe(
      'Cj0KCQiA-abc_123,,,Richiesta guida,2026-11-02 10:00:00,,EUR,Granted,Granted\r\n',
    );
    expect(googleAdsLine(conversion({ clickId: { kind: 'gbraid', value: '0AAAAAgbraid' } }), money)).toBe(
      ',0AAAAAgbraid,,Richiesta guida,2026-11-02 10:00:00,,EUR,Granted,Granted\r\n',
    );
    expect(googleAdsLine(conversion({ clickId: { kind: 'wbraid', value: 'CloKwbraid' }, event: 'verified_lead', name: 'Lead verificato' }), money)).toBe(
      ',,CloKwbraid,Lead verificato,2026-11-02 10:00:00,,EUR,Granted,Granted\r\n',
    );
  });

  it('writes the configured value and currency, and the lead’s Consent Mode states', () => {
    expect(
      googleAdsLine(conversion({ adPersonalization: 'denied' }), { value: '2.50', currency: 'CHF' }),
    ).toBe('Cj0KCQiA-abc_123,,,Richiesta guida,2026-11-02 10:00:00,2.50,CHF,Granted,Denied\r\n');
  });

  it('quotes a name with a comma or quotes and defuses one a spreadsheet would run', () => {
    expect(googleAdsLine(conversion({ name: 'Guida, "gratis"' }), money)).toContain(',"Guida, ""gratis""",');
    expect(googleAdsLine(conversion({ name: '=HYPERLINK("http://x.example")' }), money)).toContain(`,"'=HYPERLINK(""http://x.example"")",`);
  });
});

describe('the click id a lead is exported with', () => {
  it('is one id: the converting visit’s before the first landing’s; gclid, then wbraid, then gbraid', () => {
    expect(googleClickIdOf(ids({ gclid: 'G1', gbraid: 'B1', wbraid: 'W1' }))).toEqual({ kind: 'gclid', value: 'G1' });
    expect(googleClickIdOf(ids({ gbraid: 'B1', wbraid: 'W1' }))).toEqual({ kind: 'wbraid', value: 'W1' });
    expect(googleClickIdOf(ids({ gbraid: 'B1' }, { gclid: 'G0' }))).toEqual({ kind: 'gbraid', value: 'B1' });
    expect(googleClickIdOf(ids({}, { gclid: 'G0', wbraid: 'W0' }))).toEqual({ kind: 'gclid', value: 'G0' });
    expect(googleClickIdOf(ids({}))).toBeNull();
  });

  it('is none when the id would have to be changed to be safe in a spreadsheet (no id of Google’s starts so)', () => {
    for (const forged of ['=cmd', '+SUM', '-2+3', '@A1']) {
      expect(googleClickIdOf(ids({ gclid: forged }, { gclid: 'G0' }))).toBeNull();
    }
  });
});
