import { z } from 'zod';
import { defineJob } from './definition';

/**
 * Emails to a lead, at the address of its lead row: each carries the one-click link that
 * withdraws the marketing consent, and the List-Unsubscribe headers (decision 048). A new
 * email to a lead goes here, and worker/src/email/compose-email.ts then requires its text.
 */
export const LEAD_EMAIL_KINDS = ['guide-link', 'retention-notice'] as const;
export type LeadEmailKind = (typeof LEAD_EMAIL_KINDS)[number];

/**
 * The guide's link by email, once per lead: when the SMS failed for good, or was held by
 * a budget past SMS_HELD_EMAIL_AFTER_MINUTES (its text says which).
 */
export const GUIDE_LINK_EMAIL: LeadEmailKind = 'guide-link';

/**
 * Emails about a data request, to whoever typed the address into /gdpr (known as a lead or
 * not: the answer must not tell): no withdrawal link (decision 048).
 */
export const DATA_REQUEST_EMAIL_KINDS = ['gdpr-confirm', 'gdpr-export', 'gdpr-completed', 'gdpr-rejected'] as const;
export type DataRequestEmailKind = (typeof DATA_REQUEST_EMAIL_KINDS)[number];

/** What an email_messages row sends. */
export const EMAIL_KINDS = [...LEAD_EMAIL_KINDS, ...DATA_REQUEST_EMAIL_KINDS] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export const isLeadEmailKind = (kind: EmailKind): kind is LeadEmailKind =>
  (LEAD_EMAIL_KINDS as readonly EmailKind[]).includes(kind);

/** Sends one email_messages row (for example the guide link when the SMS failed). */
export const sendEmailJob = defineJob({
  queue: 'email',
  name: 'send-email',
  schema: z.object({ emailMessageId: z.number().int().positive() }),
  jobId: ({ emailMessageId }) => `email-${emailMessageId}`,
  attempts: 8,
});
