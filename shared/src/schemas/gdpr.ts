import { z } from 'zod';
import { gdprMessages } from '../gdpr-messages';
import { GDPR_PROCESS_ACTIONS, GDPR_REQUEST_TYPES, GDPR_TEXT_MAX_LENGTH } from '../gdpr-rules';
import { validationMessages as m } from '../messages';
import { safeText } from '../text-rules';
import { emailField, leadFormSchema } from './lead';

/** What a lead holds as proof of its consent (lead detail, consent history). */
export const leadConsentSchema = z.object({
  gdprConsent: z.boolean(),
  marketingConsent: z.boolean(),
  /** Version of the marketing text consented to; null when not given. */
  marketingConsentVersion: z.string().nullable(),
  /** Version of the privacy text consented to. */
  consentVersion: z.string(),
  consentTimestamp: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
});

const optionalText = (tooLong: string) =>
  safeText(m.text)
    .trim()
    .max(GDPR_TEXT_MAX_LENGTH, { error: tooLong })
    .nullish()
    .transform((value) => value || null);

/** The /gdpr form, with the spec's messages (section 5: data-rights request). */
export const gdprRequestFormSchema = z.object({
  email: emailField,
  requestType: z.enum(GDPR_REQUEST_TYPES, { error: m.requestType }),
  /** Only for a rectification: what the visitor says is wrong. */
  details: optionalText(gdprMessages.detailsTooLong),
});
export type GdprRequestFormValues = z.input<typeof gdprRequestFormSchema>;

/** POST /api/gdpr/requests: the form's fields; details are kept for rectifications only. */
export const gdprRequestSchema = gdprRequestFormSchema.transform((request) => ({
  ...request,
  details: request.requestType === 'rectification' ? request.details : null,
}));
export type GdprRequest = z.output<typeof gdprRequestSchema>;

/** 202 answer of POST /api/gdpr/requests: the same whatever the address. */
export const gdprRequestAcceptedSchema = z.object({ message: z.string() });

/** POST /api/admin/data-requests/:id/process */
export const processDataRequestSchema = z.object({
  action: z.enum(GDPR_PROCESS_ACTIONS, { error: gdprMessages.actionInvalid }),
  /** Sent to the requester when the request is rejected (the reason, art. 12(4) GDPR). */
  notes: optionalText(gdprMessages.notesTooLong),
});
export type ProcessDataRequest = z.input<typeof processDataRequestSchema>;

/** POST /api/admin/leads/:id/rectify: the corrected personal fields, validated like the form. */
export const rectifyLeadSchema = leadFormSchema
  .pick({ nome: true, cognome: true, email: true, telefono: true })
  .extend({ dataRequestId: z.number().int().positive().optional() })
  .transform(({ telefono, ...rest }) => ({ ...rest, telefono: telefono.e164, country: telefono.country }));
export type RectifyLeadInput = z.input<typeof rectifyLeadSchema>;

/** GET /api/admin/consent-history?email= */
export const consentHistoryQuerySchema = z.object({ email: emailField });

/** Everything that proves what a person consented to, oldest first. */
export const consentHistorySchema = z.object({
  email: z.string(),
  /** gdpr_consents rows: by address, and pseudonymised ones (erased) by its hash. */
  consents: z.array(
    z.object({
      id: z.number(),
      leadId: z.number().nullable(),
      consentType: z.string(),
      consented: z.boolean(),
      consentVersion: z.string(),
      consentTextHash: z.string().nullable(),
      timestamp: z.string(),
      ipAddress: z.string().nullable(),
      userAgent: z.string().nullable(),
      /** The address was erased; the row was found by the hash of the address. */
      pseudonymised: z.boolean(),
    }),
  ),
  /** The consent fields of the person's leads. */
  leads: z.array(
    z.object({ id: z.number(), createdAt: z.string() }).extend(leadConsentSchema.shape),
  ),
  dataRequests: z.array(
    z.object({
      id: z.number(),
      requestType: z.string(),
      status: z.string(),
      submittedAt: z.string(),
      confirmedAt: z.string().nullable(),
      completedAt: z.string().nullable(),
    }),
  ),
  erasures: z.array(z.object({ id: z.number(), reason: z.string(), erasedAt: z.string(), leadIds: z.array(z.number()) })),
});
export type ConsentHistory = z.infer<typeof consentHistorySchema>;
