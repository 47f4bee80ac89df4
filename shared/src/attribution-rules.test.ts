import { describe, expect, it } from 'vitest';
import { emptyTouch, isTouch, referrerHostOf, touchOfLanding, withoutClickIds } from './attribution-rules';

describe('touchOfLanding', () => {
  it('reads every UTM parameter, click id and the referring host of a landing', () => {
    const touch = touchOfLanding(
      '?utm_source=google&utm_medium=cpc&utm_campaign=Autunno+2026&utm_term=guida%20finanza&utm_content=banner-a' +
        '&gclid=Cj0KCQiA_x-1&gbraid=0AAAAA&wbraid=CjkKCQ&fbclid=IwAR0&msclkid=3f2a&ttclid=E.C.P.abc',
      'https://www.google.com/search?q=guida',
      'guidafinanza.example',
    );
    expect(touch).toEqual({
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'Autunno 2026',
      utmTerm: 'guida finanza',
      utmContent: 'banner-a',
      gclid: 'Cj0KCQiA_x-1',
      gbraid: '0AAAAA',
      wbraid: 'CjkKCQ',
      fbclid: 'IwAR0',
      msclkid: '3f2a',
      ttclid: 'E.C.P.abc',
      referrerHost: 'www.google.com',
    });
  });

  it('drops hostile values, cuts long campaign names and keeps click ids whole or not at all', () => {
    const touch = touchOfLanding(
      `?utm_source=%3Cscript%3E&utm_campaign=${'a'.repeat(400)}&utm_term=%20%20spazi%0A%20doppi%20&gclid=a%20b&fbclid=${'x'.repeat(300)}`,
      'javascript:alert(1)',
      'guidafinanza.example',
    );
    expect(touch).toEqual({ ...emptyTouch(), utmCampaign: 'a'.repeat(150), utmTerm: 'spazi doppi' });
  });

  it('says nothing for a direct visit or a page of this site', () => {
    expect(isTouch(touchOfLanding('', null, 'guidafinanza.example'))).toBe(false);
    expect(isTouch(touchOfLanding('?prefisso=39', 'https://guidafinanza.example/trading', 'guidafinanza.example'))).toBe(false);
  });
});

describe('referrerHostOf', () => {
  it('keeps the host name only, never this site (with or without www.)', () => {
    expect(referrerHostOf('https://L.Facebook.com:443/l.php?u=x', 'guidafinanza.example')).toBe('l.facebook.com');
    expect(referrerHostOf('android-app://com.google.android.gm/', 'guidafinanza.example')).toBe('com.google.android.gm');
    expect(referrerHostOf('https://www.guidafinanza.example/', 'guidafinanza.example:443')).toBeNull();
    expect(referrerHostOf('http://[::1]:3000/', 'guidafinanza.example')).toBeNull();
    expect(referrerHostOf('not a url', 'guidafinanza.example')).toBeNull();
  });
});

describe('withoutClickIds', () => {
  it('empties every click id and keeps the campaign and the referring host (decision 049)', () => {
    const touch = touchOfLanding(
      '?utm_source=google&utm_campaign=inverno&gclid=Cj0&gbraid=0A&wbraid=Cj&fbclid=IwAR0&msclkid=3f&ttclid=E.C',
      'https://www.google.com/',
      'guidafinanza.example',
    );
    expect(withoutClickIds(touch)).toEqual({ ...emptyTouch(), utmSource: 'google', utmCampaign: 'inverno', referrerHost: 'www.google.com' });
    expect(touch.gclid).toBe('Cj0');
    const none = { ...emptyTouch(), utmSource: 'google' };
    expect(withoutClickIds(none)).toBe(none);
  });
});
