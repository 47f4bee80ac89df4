import { z } from 'zod';
import { defineJob } from './definition';

export const EMAIL_KINDS = ['guide-link'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** Sends one email_messages row (for example the guide link when the SMS failed). */
export const sendEmailJob = defineJob({
  queue: 'email',
  name: 'send-email',
  schema: z.object({ emailMessageId: z.number().int().positive() }),
  jobId: ({ emailMessageId }) => `email-${emailMessageId}`,
  attempts: 8,
});
