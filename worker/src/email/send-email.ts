import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { sendEmailJob } from '@guida/shared/jobs/email';
import { daysLeft, guideLinkUrl } from '@guida/shared/lead-rules';
import { guideDelivery } from '@guida/shared/messages';
import type { Logger } from '@guida/shared/server/logger';
import { loadEmailContext, recordEmailAttempt, type EmailContext } from './email.repo';
import { EmailSendError, type Mailer, type OutgoingEmail } from './mailer';

export interface SendEmailDeps {
  db: Knex;
  logger: Logger;
  mailer: Mailer;
  publicBaseUrl: string;
}

function composeEmail(message: EmailContext, publicBaseUrl: string): OutgoingEmail | null {
  if (!message.email || !message.nome || !message.token || !message.expires_at) return null;
  return {
    to: message.email,
    subject: guideDelivery.emailSubject,
    text: guideDelivery.emailText(
      message.nome,
      guideLinkUrl(publicBaseUrl, message.token),
      daysLeft(message.expires_at),
    ),
  };
}

/** Sends one email_messages row, once; retried with backoff, 5xx answers are final. */
export function createSendEmail(deps: SendEmailDeps) {
  return async function sendEmail(job: Job): Promise<string> {
    const { emailMessageId } = sendEmailJob.schema.parse(job.data);
    const message = await loadEmailContext(deps.db, emailMessageId);
    if (!message) return 'skipped: email row no longer exists';
    if (message.status !== 'pending' && message.status !== 'retrying') return `skipped: already ${message.status}`;
    const attempts = job.attemptsMade + 1;
    const email = composeEmail(message, deps.publicBaseUrl);
    if (!email) {
      await recordEmailAttempt(deps.db, emailMessageId, { status: 'skipped', attempts: 0, error: 'lead erased' });
      return 'skipped: nothing to send';
    }
    try {
      const { messageId } = await deps.mailer.send(email);
      await recordEmailAttempt(deps.db, emailMessageId, { status: 'delivered', attempts, messageId });
      deps.logger.info({ leadId: message.lead_id, emailMessageId, kind: message.kind }, 'email sent');
      return 'sent';
    } catch (error) {
      const failure =
        error instanceof EmailSendError ? error : new EmailSendError((error as Error).message, false);
      const lastAttempt = failure.permanent || attempts >= (job.opts.attempts ?? 1);
      await recordEmailAttempt(deps.db, emailMessageId, {
        status: lastAttempt ? 'failed' : 'retrying',
        attempts,
        error: failure.message,
      });
      deps.logger.warn(
        { leadId: message.lead_id, emailMessageId, attempts },
        lastAttempt ? 'email failed for good' : 'email failed; will retry',
      );
      throw lastAttempt ? new UnrecoverableError(failure.message) : failure;
    }
  };
}
