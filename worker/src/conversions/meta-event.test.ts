import { describe, expect, it } from 'vitest';
import { metaFbc, metaServerEvent, normaliseEmailForMeta, normalisePhoneForMeta, sha256Hex } from './meta-event';

/**
 * Meta's own examples (Conversions API, Customer Information Parameters): the input, the
 * normalised form and the SHA-256 Meta expects for `em` and `ph`.
 */
const META_EXAMPLES = {
  email: { input: 'John_Smith@gmail.com', normalised: 'john_smith@gmail.com', sha256: '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f' },
  // "US phone number (650)555-1212": the country code 1 goes first.
  phone: { input: '+1 (650) 555-1212', normalised: '16505551212', sha256: 'e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176' },
};

describe("hashing as Meta's documentation specifies", () => {
  it('gives the documented hash of the email example, whatever its case and spaces', () => {
    for (const input of [META_EXAMPLES.email.input, `  ${META_EXAMPLES.email.input.toUpperCase()}\t`]) {
      expect(normaliseEmailForMeta(input)).toBe(META_EXAMPLES.email.normalised);
      expect(sha256Hex(normaliseEmailForMeta(input))).toBe(META_EXAMPLES.email.sha256);
    }
  });

  it('gives the documented hash of the phone example: digits only, with the country code, no +', () => {
    expect(normalisePhoneForMeta(META_EXAMPLES.phone.input)).toBe(META_EXAMPLES.phone.normalised);
    expect(sha256Hex(normalisePhoneForMeta(META_EXAMPLES.phone.input))).toBe(META_EXAMPLES.phone.sha256);
  });

  it('turns our E.164 numbers into the same digits however written: no + and no international 00', () => {
    for (const input of ['+393471234567', '+39 347 123 4567', '0039 347 123 4567']) expect(normalisePhoneForMeta(input)).toBe('393471234567');
    expect(normalisePhoneForMeta('+41791234567')).toBe('41791234567');
  });
});

describe('a Meta server event', () => {
  const lead = {
    id: 42,
    email: ' Anna.Bruno@Example.IT',
    telefono: '+393471234567',
    created_at: new Date('2026-11-26T10:15:30.123Z'),
    landing_path: '/educazione-investimenti',
    user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
    fbclid: 'IwAR0last',
    first_fbclid: 'IwAR0first',
  };

  it('carries the documented fields, hashed contacts, the click id and the browser, and nothing else of the lead', () => {
    const event = metaServerEvent({ event: 'lead', event_id: 'lead-42' }, lead, lead.created_at, 'https://guida.example.it');
    expect(event).toEqual({
      event_name: 'Lead',
      event_time: 1_795_688_130,
      event_id: 'lead-42',
      action_source: 'website',
      event_source_url: 'https://guida.example.it/educazione-investimenti',
      user_data: {
        em: [sha256Hex('anna.bruno@example.it')],
        ph: [sha256Hex('393471234567')],
        fbc: 'fb.1.1795688130123.IwAR0last',
        client_user_agent: lead.user_agent,
      },
    });
    const text = JSON.stringify(event);
    for (const personal of ['Anna', 'anna.bruno', '3471234567', 'Example.IT']) expect(text).not.toContain(personal);
  });

  it('names the verified event LeadVerified at its own time, takes the first landing’s click id when the last has none, and leaves out what is missing', () => {
    const verifiedAt = new Date('2026-11-26T10:17:00.000Z');
    const event = metaServerEvent(
      { event: 'verified_lead', event_id: 'lead-42-verified' },
      { ...lead, fbclid: null, landing_path: null, user_agent: null },
      verifiedAt,
      'https://guida.example.it',
    );
    expect(event).toMatchObject({ event_name: 'LeadVerified', event_time: 1_795_688_220, event_id: 'lead-42-verified', event_source_url: 'https://guida.example.it/' });
    expect(event.user_data.fbc).toBe(metaFbc('IwAR0first', lead.created_at.getTime()));
    expect(event.user_data).not.toHaveProperty('client_user_agent');
    const withoutClick = metaServerEvent({ event: 'lead', event_id: 'lead-42' }, { ...lead, fbclid: null, first_fbclid: null }, lead.created_at, 'https://guida.example.it');
    expect(withoutClick.user_data).not.toHaveProperty('fbc');
  });
});
