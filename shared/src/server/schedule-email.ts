import type { Knex } from 'knex';
import { sendEmailJob, type EmailKind } from '../jobs/email';
import type { JobQueues } from './job-queues';
import type { Logger } from './logger';

export type EmailSubject = { leadId: number } | { dataRequestId: number };

/**
 * Writes the email_messages row (one per lead or data request and kind), then enqueues
 * its job. The row comes first, so a Redis outage only delays the email: the sweeper
 * enqueues pending rows. Returns the row id, or null when this email was already scheduled.
 */
export async function scheduleEmail(
  deps: { db: Knex; queues: JobQueues; logger: Logger },
  subject: EmailSubject,
  kind: EmailKind,
): Promise<number | null> {
  const [row] =
    'leadId' in subject
      ? await deps.db('email_messages')
          .insert({ lead_id: subject.leadId, kind })
          .onConflict(['lead_id', 'kind'])
          .ignore()
          .returning<{ id: number }[]>('id')
      : await deps.db('email_messages')
          .insert({ data_request_id: subject.dataRequestId, kind })
          .onConflict(['data_request_id', 'kind'])
          .ignore()
          .returning<{ id: number }[]>('id');
  if (!row) return null;
  try {
    await deps.queues.enqueue(sendEmailJob, { emailMessageId: row.id });
  } catch (error) {
    deps.logger.warn(
      { ...subject, kind, emailMessageId: row.id, err: (error as Error).message },
      'email job not enqueued; the sweeper will add it',
    );
  }
  return row.id;
}
