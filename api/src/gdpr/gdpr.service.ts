import type { Knex } from 'knex';
import { sendEmailJob } from '@guida/shared/jobs/email';
import type { GdprRequest } from '@guida/shared/schemas/gdpr';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { insertDataRequest, type RequestOrigin } from './gdpr.repo';

export interface GdprDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
}

/**
 * Stores the request and sends the confirmation link to the address given, whether or not
 * we hold anything for it: the same work, the same answer, so nobody learns from it who
 * is in our records. Only the owner of the mailbox can confirm.
 */
export async function submitDataRequest(deps: GdprDeps, request: GdprRequest, origin: RequestOrigin) {
  const { dataRequestId, emailMessageId } = await insertDataRequest(deps.db, request, origin);
  // Committed first: if Redis is down, the sweeper enqueues the pending email later.
  await deps.queues.enqueue(sendEmailJob, { emailMessageId }).catch((error: unknown) => {
    deps.logger.warn({ dataRequestId, err: (error as Error).message }, 'confirmation email not enqueued; the sweeper will');
  });
  deps.logger.info({ dataRequestId, requestType: request.requestType }, 'data request received');
  return dataRequestId;
}
