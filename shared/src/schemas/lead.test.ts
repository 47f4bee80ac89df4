import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emptyTouch } from '../attribution-rules';
import { HERO_EXPERIMENTS } from '../experiments';
import { DEFAULT_UTM_SOURCE } from '../lead-rules';
import { formMessages, validationMessages } from '../messages';
import { ebookRequestSchema, leadFormSchema } from './lead';

const valid = {
  nome: 'Mario',
  cognome: 'Rossi',
  email: 'mario@example.it',
  telefono: '+39 347 123 4567',
  gdprConsent: true,
};

const fieldErrors = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
};

describe('the Italian texts of the spec', () => {
  it('are copied exactly', () => {
    expect(validationMessages).toMatchObject({
      nome: 'Il nome deve contenere almeno 2 caratteri',
      cognome: 'Il cognome deve contenere almeno 2 caratteri',
      email: 'Inserisci un indirizzo email valido',
      telefono: 'Inserisci un numero di telefono valido',
      gdprConsent: 'È necessario accettare il trattamento dei dati personali per procedere',
    });
    expect(formMessages).toMatchObject({
      submitting: 'Invio in corso...',
      consentRequiredTitle: 'Consenso richiesto',
      consentRequiredText: "Devi accettare l'informativa sulla privacy per continuare",
      errorTitle: 'Errore',
      errorFallbackOlderPage: 'Si è verificato un errore. Riprova più tardi.',
      errorFallbackNewerPages: 'Si è verificato un errore. Riprova.',
      errorAnalyticsFallback: "Errore durante l'invio della richiesta",
    });
  });
});

describe('lead form schema', () => {
  it('accepts a valid request', () => {
    expect(leadFormSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    ['nome', { nome: 'M' }],
    ['nome', { nome: '  M  ' }],
    ['cognome', { cognome: '' }],
    ['email', { email: 'mario.example.it' }],
    ['telefono', { telefono: '1234567' }],
    ['telefono', { telefono: '02 1234 5678' }],
    ['gdprConsent', { gdprConsent: false }],
  ])('puts the spec message under %s', (field, change) => {
    const errors = fieldErrors(leadFormSchema, { ...valid, ...change }) as Record<string, string[]>;
    expect(errors[field]).toEqual([validationMessages[field as keyof typeof validationMessages]]);
  });

  it('gives every field its message when the body is empty', () => {
    expect(fieldErrors(leadFormSchema, {})).toEqual({
      nome: [validationMessages.nome],
      cognome: [validationMessages.cognome],
      email: [validationMessages.email],
      telefono: [validationMessages.telefono],
      gdprConsent: [validationMessages.gdprConsent],
    });
  });
});

describe('ebook request schema', () => {
  it('normalises: E.164 phone with its country, lower-case email, defaults, null tags, utm_source "direct"', () => {
    expect(
      ebookRequestSchema.parse({ ...valid, email: ' Mario@Example.IT ', utmSource: ' ', utmMedium: 'cpc' }),
    ).toEqual({
      nome: 'Mario',
      cognome: 'Rossi',
      email: 'mario@example.it',
      telefono: '+393471234567',
      country: 'IT',
      gdprConsent: true,
      marketingConsent: false,
      ebookType: 'general',
      source: 'direct',
      ...emptyTouch(),
      // A blank utm_source is none: the spec's default.
      utmSource: DEFAULT_UTM_SOURCE,
      utmMedium: 'cpc',
      // Without a first touch (a form sent without JavaScript), the last touch is the first.
      firstTouch: { ...emptyTouch(), utmSource: DEFAULT_UTM_SOURCE, utmMedium: 'cpc' },
      landingPath: null,
      heroVariant: null,
      visitSession: null,
      // No cookie choice named: the lead keeps no click id (decision 049).
      cookieConsentSessionId: null,
    });
  });

  it('gives both touches utm_source "direct" when they have none (spec section 3), and keeps one given', () => {
    expect(DEFAULT_UTM_SOURCE).toBe('direct');
    // The older page sends only the personal fields.
    expect(ebookRequestSchema.parse(valid)).toMatchObject({
      utmSource: 'direct',
      firstTouch: { ...emptyTouch(), utmSource: 'direct' },
    });
    // The script sends null for what the landing's address did not say.
    expect(
      ebookRequestSchema.parse({ ...valid, utmSource: null, referrerHost: 'www.bing.com', firstTouch: { ...emptyTouch(), gclid: 'Cj0KCQ-first' } }),
    ).toMatchObject({
      utmSource: 'direct',
      referrerHost: 'www.bing.com',
      firstTouch: { ...emptyTouch(), utmSource: 'direct', gclid: 'Cj0KCQ-first' },
    });
    expect(
      ebookRequestSchema.parse({ ...valid, utmSource: 'google', firstTouch: { utmSource: 'facebook' } }),
    ).toMatchObject({ utmSource: 'google', firstTouch: { ...emptyTouch(), utmSource: 'facebook' } });
    expect(ebookRequestSchema.parse({ ...valid, utmSource: 'google' })).toMatchObject({
      utmSource: 'google',
      firstTouch: { ...emptyTouch(), utmSource: 'google' },
    });
  });

  it('takes no hero variant from the request, and never refuses a lead for its visit session (decision 051)', () => {
    const experiment = HERO_EXPERIMENTS[0]!;
    for (const heroVariant of [experiment.variants[1]!.id, 'zz', { a: 1 }, 'b'.repeat(5000)]) {
      expect(ebookRequestSchema.parse({ ...valid, landingPath: experiment.path, heroVariant }).heroVariant).toBeNull();
    }
    expect(ebookRequestSchema.parse({ ...valid, visitSession: 'payload.signature' }).visitSession).toBe('payload.signature');
    for (const visitSession of [42, '', 'x'.repeat(1001), null]) {
      expect(ebookRequestSchema.parse({ ...valid, visitSession }).visitSession).toBeNull();
    }
  });

  it('takes the first and last touch, and refuses campaign values that break their rule', () => {
    const parsed = ebookRequestSchema.parse({
      ...valid,
      utmSource: 'google',
      utmCampaign: 'Black Friday 2026 – IT',
      utmTerm: 'guida finanza',
      gclid: 'Cj0KCQiA-abc_123',
      referrerHost: 'www.google.com',
      firstTouch: { utmSource: 'facebook', fbclid: 'IwAR0abc', referrerHost: 'm.facebook.com' },
    });
    expect(parsed).toMatchObject({
      utmSource: 'google',
      utmCampaign: 'Black Friday 2026 – IT',
      utmTerm: 'guida finanza',
      gclid: 'Cj0KCQiA-abc_123',
      referrerHost: 'www.google.com',
      msclkid: null,
      firstTouch: { ...emptyTouch(), utmSource: 'facebook', fbclid: 'IwAR0abc', referrerHost: 'm.facebook.com' },
    });
    for (const [field, value] of [
      ['utmCampaign', '<script>alert(1)</script>'],
      ['utmContent', 'a'.repeat(151)],
      ['utmSource', 'Vai su https://evil.example "subito"'],
      ['gclid', 'abc def'],
      ['fbclid', 'x'.repeat(257)],
      ['referrerHost', 'https://www.google.com/'],
      ['referrerHost', 'evil.example/path'],
    ] as const) {
      expect(fieldErrors(ebookRequestSchema, { ...valid, [field]: value }), `${field}: ${value}`).toEqual({
        [field]: [validationMessages.campaign],
      });
    }
    expect(Object.keys(fieldErrors(ebookRequestSchema, { ...valid, firstTouch: { ttclid: '<b>' } }))).toEqual(['firstTouch']);
  });

  it('takes the optional marketing consent as given only when it is true', () => {
    const marketing = (value: unknown) => ebookRequestSchema.parse({ ...valid, marketingConsent: value }).marketingConsent;
    expect(marketing(true)).toBe(true);
    expect([marketing(false), marketing(null), marketing(undefined)]).toEqual([false, false, false]);
    expect(Object.keys(fieldErrors(ebookRequestSchema, { ...valid, marketingConsent: 'true' }))).toEqual(['marketingConsent']);
  });

  it('keeps only paths as landing paths', () => {
    expect(ebookRequestSchema.parse({ ...valid, landingPath: '/oro-svizzera' }).landingPath).toBe('/oro-svizzera');
    expect(ebookRequestSchema.parse({ ...valid, landingPath: 'https://evil.example' }).landingPath).toBeNull();
  });

  it('refuses unknown guide types and overlong texts', () => {
    expect(fieldErrors(ebookRequestSchema, { ...valid, ebookType: 'x' })).toEqual({
      ebookType: [validationMessages.ebookType],
    });
    expect(fieldErrors(ebookRequestSchema, { ...valid, source: 'x'.repeat(101) })).toEqual({
      source: [validationMessages.text],
    });
  });
});
