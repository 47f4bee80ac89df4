import { z } from 'zod';
import { pickTouch, type Touch } from '../attribution-rules';
import { DEFAULT_EBOOK_TYPE, DEFAULT_SOURCE, DEFAULT_UTM_SOURCE, EBOOK_TYPES } from '../lead-rules';
import { validationMessages as m } from '../messages';
import { parseMobileNumber } from '../phone/mobile-number';
import { safeText } from '../text-rules';
import { touchSchema, touchShape } from './attribution';
import { serverAssignedVariant } from './hero-variant';
import { sessionIdSchema } from './session-id';
import { visitSessionField } from './visit-session';

const personName = (message: string) =>
  safeText(message)
    .trim()
    .min(2, { error: message })
    .max(80, { error: m.text });

export const emailField = z
  .string({ error: m.email })
  .trim()
  .toLowerCase()
  .max(254, { error: m.email })
  .pipe(z.email({ error: m.email }));

const telefonoText = z
  .string({ error: m.telefono })
  .trim()
  .min(8, { error: m.telefono })
  .max(32, { error: m.telefono });

/** Mobile number as typed, parsed to E.164; only Italian and Swiss mobiles pass. */
export const telefonoField = telefonoText.transform((value, ctx) => {
  const mobile = parseMobileNumber(value);
  if (!mobile) {
    ctx.addIssue({ code: 'custom', message: m.telefono });
    return z.NEVER;
  }
  return mobile;
});

/** The fields the visitor fills in, with the spec's messages; used by the form. */
export const leadFormSchema = z.object({
  nome: personName(m.nome),
  cognome: personName(m.cognome),
  email: emailField,
  telefono: telefonoField,
  gdprConsent: z.literal(true, { error: m.gdprConsent }),
  /** Optional and separate from gdprConsent: left out (or null) means not given. */
  marketingConsent: z.boolean().nullish(),
});
export type LeadFormValues = z.input<typeof leadFormSchema>;

/** A touch without utm_source gets the spec's default (decision 045). */
const withDefaultUtmSource = (touch: Touch): Touch => ({ ...touch, utmSource: touch.utmSource ?? DEFAULT_UTM_SOURCE });

/** A guide request as the API accepts it: form fields plus page and campaign data. */
export const ebookRequestSchema = leadFormSchema
  .extend({
    ebookType: z.enum(EBOOK_TYPES, { error: m.ebookType }).default(DEFAULT_EBOOK_TYPE),
    source: safeText(m.text)
      .trim()
      .max(100, { error: m.text })
      .nullish()
      .transform((value) => value || DEFAULT_SOURCE),
    /**
     * The visit's last touch (attribution-rules.ts): what brought the visitor most recently;
     * utmSource DEFAULT_UTM_SOURCE when it has none.
     */
    ...touchShape,
    /**
     * The visit's first landing, with the same default; without it (a form sent without
     * JavaScript), the last touch.
     */
    firstTouch: touchSchema.nullish(),
    /** Path of the page the form was sent from, e.g. /trading-svizzera. */
    landingPath: safeText(m.text)
      .trim()
      .max(300, { error: m.text })
      .nullish()
      .transform((value) => (value && value.startsWith('/') ? value : null)),
    /**
     * The hero variant shown, when the page is under an A/B experiment (decision 041): set by
     * the API from the visit's signed session, or as its request is served (decision 051).
     */
    heroVariant: serverAssignedVariant,
    /** The visit's signed session (GET /api/analytics/session), when the page has one. */
    visitSession: visitSessionField,
    /**
     * The session id of the visitor's cookie choice (POST /api/cookie-consent), when one was
     * made: the API keeps the click ids, and records the ad consent as granted, only when its
     * own latest record for this id accepts marketing (decision 049).
     */
    cookieConsentSessionId: sessionIdSchema.nullish().transform((value) => value ?? null),
  })
  .transform(({ telefono, marketingConsent, firstTouch, ...rest }) => {
    const lastTouch = withDefaultUtmSource(pickTouch(rest));
    return {
      ...rest,
      ...lastTouch,
      firstTouch: firstTouch ? withDefaultUtmSource(firstTouch) : lastTouch,
      telefono: telefono.e164,
      country: telefono.country,
      marketingConsent: marketingConsent ?? false,
    };
  });
export type EbookRequestInput = z.input<typeof ebookRequestSchema>;
export type EbookRequest = z.output<typeof ebookRequestSchema>;

/** 201 answer of POST /api/ebook-request. */
export const ebookRequestCreatedSchema = z.object({
  id: z.number().int().positive(),
  redirectTo: z.string(),
});
export type EbookRequestCreated = z.infer<typeof ebookRequestCreatedSchema>;

/** Error answer shared by every API route. */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
