import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import {
  claimEmail,
  emailIsClaimable,
  emailStatus,
  handBackEmailClaim,
  recordEmailDelivered,
  recordEmailFailure,
  skipEmail,
} from '@guida/shared/deliveries/email-deliveries';
import { sendEmailJob } from '@guida/shared/jobs/email';
import type { Logger } from '@guida/shared/server/logger';
import { forgetDeletionRequester } from '../gdpr';
import { composeEmail, type ComposeSettings } from './compose-email';
import { loadEmailContext, type EmailContext } from './email.repo';
import { EmailSendError, type Mailer } from '@guida/shared/server/mailer';

export interface SendEmailDeps extends ComposeSettings {
  db: Knex;
  logger: Logger;
  mailer: Mailer;
  /** A claim older than this was left by a worker that stopped mid-send. */
  claimTimeoutMs: number;
}

/**
 * The confirmation of an erasure is the last use of the requester's address: once it
 * went out (or failed for good) the address is forgotten too.
 */
async function afterLastAttempt(db: Knex, message: EmailContext) {
  if (message.kind === 'gdpr-completed' && message.request_type === 'deletion' && message.data_request_id !== null) {
    await forgetDeletionRequester(db, message.data_request_id);
  }
}

/**
 * Sends one email_messages row, once; retried with backoff, 5xx answers are final. Two
 * runs of the job may overlap (a stalled job recovered while its first run still sends),
 * so only the run that claims the row (`sending`, in one statement) composes and sends it.
 */
export function createSendEmail(deps: SendEmailDeps) {
  return async function sendEmail(job: Job): Promise<string> {
    const { emailMessageId } = sendEmailJob.schema.parse(job.data);
    const message = await loadEmailContext(deps.db, emailMessageId);
    if (!message) return 'skipped: email row no longer exists';
    if (!emailIsClaimable(message.status)) return `skipped: already ${message.status}`;
    const attempts = job.attemptsMade + 1;
    // Claimed before composing: a data-rights email mints its link then, and a second
    // run's link would replace it, leaving a dead link in the email that went out.
    if (!(await claimEmail(deps.db, message, attempts, deps.claimTimeoutMs))) {
      const status = await emailStatus(deps.db, emailMessageId);
      return status ? `skipped: already ${status}` : 'skipped: email row no longer exists';
    }
    const email = await composeEmail(deps.db, message, deps).catch(async (error: unknown) => {
      // Hand the claim back (status and attempts as they were) for the job's next run.
      await handBackEmailClaim(deps.db, emailMessageId, message, (error as Error).message);
      throw error;
    });
    if (!email) {
      await skipEmail(deps.db, emailMessageId, 'nothing to send');
      return 'skipped: nothing to send';
    }
    try {
      const { messageId } = await deps.mailer.send(email);
      await recordEmailDelivered(deps.db, emailMessageId, { attempts, messageId });
      await afterLastAttempt(deps.db, message);
      deps.logger.info(
        { leadId: message.lead_id, dataRequestId: message.data_request_id, emailMessageId, kind: message.kind },
        'email sent',
      );
      return 'sent';
    } catch (error) {
      const cause = error instanceof EmailSendError ? error : new EmailSendError((error as Error).message, false);
      // SMTP refusals often quote the recipient; the error goes to Postgres and Redis.
      const failure = new EmailSendError(cause.message.replaceAll(email.to, '<destinatario>'), cause.permanent);
      const lastAttempt = failure.permanent || attempts >= (job.opts.attempts ?? 1);
      await recordEmailFailure(deps.db, emailMessageId, { final: lastAttempt, attempts, error: failure.message });
      if (lastAttempt) await afterLastAttempt(deps.db, message);
      deps.logger.warn(
        { leadId: message.lead_id, dataRequestId: message.data_request_id, emailMessageId, attempts },
        lastAttempt ? 'email failed for good' : 'email failed; will retry',
      );
      throw lastAttempt ? new UnrecoverableError(failure.message) : failure;
    }
  };
}
