import { z } from 'zod';
import { defineJob } from './definition';

/** Sends the personal guide link to the lead's phone. */
export const sendGuideSmsJob = defineJob({
  queue: 'sms',
  name: 'send-guide-sms',
  schema: z.object({ leadId: z.number().int().positive() }),
  // One id per delivery, resends included (they replace the finished job: enqueueAgain),
  // so a delivery never has two jobs that could both send.
  jobId: ({ leadId }) => `lead-${leadId}`,
  // With a 2 s base: retries after about 2, 4, 8, 16 and 32 s, inside the 2-minute promise.
  attempts: 6,
});

/** Where Twilio posts status callbacks (the worker sends this URL with each SMS). */
export const SMS_STATUS_CALLBACK_PATH = '/api/sms/status';
/** The query parameter of that URL naming our SMS (sms_messages.id). */
export const SMS_STATUS_CALLBACK_ID_PARAM = 'sms';
