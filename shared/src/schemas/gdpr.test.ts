import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gdprMessages } from '../gdpr-messages';
import { validationMessages } from '../messages';
import { gdprRequestSchema, processDataRequestSchema, rectifyLeadSchema } from './gdpr';

const fieldErrors = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
};

describe('data-rights request schema (spec section 5)', () => {
  it('accepts the four request types and normalises the address', () => {
    for (const requestType of ['access', 'deletion', 'portability', 'rectification']) {
      expect(gdprRequestSchema.parse({ email: ' Anna@Example.IT ', requestType })).toEqual({
        email: 'anna@example.it',
        requestType,
        details: null,
      });
    }
  });

  it('refuses an invalid email and an unknown type with the spec messages', () => {
    expect(fieldErrors(gdprRequestSchema, { email: 'anna@', requestType: 'erase-all' })).toEqual({
      email: [validationMessages.email],
      requestType: [validationMessages.requestType],
    });
    expect(fieldErrors(gdprRequestSchema, {})).toEqual({
      email: [validationMessages.email],
      requestType: [validationMessages.requestType],
    });
  });

  it('keeps what to correct for rectifications only, and bounds its length', () => {
    expect(gdprRequestSchema.parse({ email: 'a@b.it', requestType: 'rectification', details: ' Cognome: Rossi ' }).details).toBe(
      'Cognome: Rossi',
    );
    expect(gdprRequestSchema.parse({ email: 'a@b.it', requestType: 'access', details: 'x' }).details).toBeNull();
    expect(fieldErrors(gdprRequestSchema, { email: 'a@b.it', requestType: 'rectification', details: 'x'.repeat(2001) })).toEqual({
      details: [gdprMessages.detailsTooLong],
    });
  });
});

describe('admin schemas', () => {
  it('process: complete or reject, with optional notes', () => {
    expect(processDataRequestSchema.parse({ action: 'reject', notes: ' ' })).toEqual({ action: 'reject', notes: null });
    expect(fieldErrors(processDataRequestSchema, { action: 'delete' })).toEqual({ action: [gdprMessages.actionInvalid] });
  });

  it('rectify: the lead form rules, the phone in E.164', () => {
    expect(rectifyLeadSchema.parse({ nome: 'Anna', cognome: 'Neri', email: 'A@B.IT', telefono: '079 555 01 02' })).toEqual({
      nome: 'Anna',
      cognome: 'Neri',
      email: 'a@b.it',
      telefono: '+41795550102',
      country: 'CH',
    });
    expect(fieldErrors(rectifyLeadSchema, { nome: 'A', cognome: 'Neri', email: 'x', telefono: '06 1234 5678' })).toEqual({
      nome: [validationMessages.nome],
      email: [validationMessages.email],
      telefono: [validationMessages.telefono],
    });
  });
});
