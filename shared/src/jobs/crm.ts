import { z } from 'zod';
import { defineJob } from './definition';

/** The lead became verified (decision 059): each goes out once per lead, when first true. */
export const CRM_VERIFICATION_EVENTS = ['lead.sms_delivered', 'lead.guide_opened'] as const;
export type CrmVerificationEvent = (typeof CRM_VERIFICATION_EVENTS)[number];

export const CRM_EVENTS = [
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'lead.consent_withdrawn',
  ...CRM_VERIFICATION_EVENTS,
] as const;
export type CrmEvent = (typeof CRM_EVENTS)[number];

/** Posts one crm_deliveries row to the operator's CRM webhook. */
export const deliverToCrmJob = defineJob({
  queue: 'crm',
  name: 'deliver-to-crm',
  schema: z.object({
    deliveryId: z.number().int().positive(),
    leadId: z.number().int().positive(),
    event: z.enum(CRM_EVENTS),
  }),
  // The first delivery of a lead is keyed by the lead id; later events by their row. One
  // id per delivery, redeliveries included (they replace the finished job: enqueueAgain).
  jobId: ({ leadId, deliveryId, event }) =>
    event === 'lead.created' ? `lead-${leadId}` : `lead-${leadId}-${event.replace('.', '-')}-${deliveryId}`,
  // With a 60 s base the last retry comes about 8.5 h after the first failure.
  attempts: 10,
});
