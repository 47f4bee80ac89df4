import type { Knex } from 'knex';
import { sendEmailJob } from '../jobs/email';
import type { JobQueues } from './job-queues';
import type { Logger } from './logger';

/**
 * When the SMS with the guide link failed or was not delivered, the link goes by email.
 * Called by the worker (provider refused the SMS) and by the API (Twilio reported it
 * undelivered). The row is written first, so a Redis outage only delays the email.
 */
export async function sendGuideLinkByEmail(
  deps: { db: Knex; queues: JobQueues; logger: Logger },
  leadId: number,
) {
  const [row] = await deps.db('email_messages')
    .insert({ lead_id: leadId, kind: 'guide-link' })
    .onConflict(['lead_id', 'kind'])
    .ignore()
    .returning<{ id: number }[]>('id');
  if (!row) return; // already scheduled for this lead
  try {
    await deps.queues.enqueue(sendEmailJob, { emailMessageId: row.id });
  } catch (error) {
    deps.logger.warn(
      { leadId, emailMessageId: row.id, err: (error as Error).message },
      'email job not enqueued; the sweeper will add it',
    );
  }
}
