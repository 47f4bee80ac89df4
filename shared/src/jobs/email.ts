import { z } from 'zod';
import { defineJob } from './definition';

/**
 * What an email_messages row sends: the guide link of a lead, or a message about a data
 * request (confirmation link, export link, outcome) or the retention notice of a lead.
 */
export const EMAIL_KINDS = [
  'guide-link',
  'gdpr-confirm',
  'gdpr-export',
  'gdpr-completed',
  'gdpr-rejected',
  'retention-notice',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** Sends one email_messages row (for example the guide link when the SMS failed). */
export const sendEmailJob = defineJob({
  queue: 'email',
  name: 'send-email',
  schema: z.object({ emailMessageId: z.number().int().positive() }),
  jobId: ({ emailMessageId }) => `email-${emailMessageId}`,
  attempts: 8,
});
