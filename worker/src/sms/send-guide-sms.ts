import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { daysLeft, guideLinkUrl } from '@guida/shared/lead-rules';
import { sendGuideLinkByEmail } from '@guida/shared/server/guide-email-fallback';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { guideSmsText } from './guide-sms-text';
import { SmsSendError, type SmsProvider } from './providers/sms-provider';
import { claimSms, loadSmsContext, loadSmsStatus, recordSmsTransition } from './sms.repo';

export interface SendGuideSmsDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  provider: SmsProvider;
  publicBaseUrl: string;
  /** Pauses the whole sms queue (every worker) after the provider answered 429. */
  rateLimit(ms: number): Promise<void>;
}

/**
 * Sends the guide link by SMS, once. The job may run more than once, even two runs at the
 * same time (retries, sweeper, a stalled job recovered while its first run still sends),
 * so it claims the SMS (`sending`) in one statement before calling the provider and does
 * nothing unless the claim succeeds; a phone that already got an SMS from another lead in
 * 24 h is skipped.
 */
export function createSendGuideSms(deps: SendGuideSmsDeps) {
  return async function sendGuideSms(job: Job): Promise<string> {
    const { leadId } = sendGuideSmsJob.schema.parse(job.data);
    const sms = await loadSmsContext(deps.db, leadId);
    if (!sms) return 'skipped: the lead no longer exists';
    if (sms.status !== 'pending' && sms.status !== 'retrying') return `skipped: already ${sms.status}`;

    const attempts = job.attemptsMade + 1;
    if (sms.phone_recently_served) {
      await recordSmsTransition(deps.db, sms.sms_id, {
        status: 'skipped',
        attempts: attempts - 1,
        errorMessage: 'this phone already received the guide in the last 24 hours',
      });
      return 'skipped: phone already served within 24 h';
    }

    if (!(await claimSms(deps.db, sms.sms_id, attempts))) {
      const status = await loadSmsStatus(deps.db, sms.sms_id);
      return status ? `skipped: already ${status}` : 'skipped: the lead no longer exists';
    }

    const body = guideSmsText({
      nome: sms.nome,
      link: guideLinkUrl(deps.publicBaseUrl, sms.token),
      validDays: daysLeft(sms.expires_at),
    });

    try {
      const { providerMessageId } = await deps.provider.send({ to: sms.telefono, body, leadId });
      await recordSmsTransition(deps.db, sms.sms_id, {
        status: 'sent',
        attempts,
        provider: deps.provider.name,
        providerMessageId,
      });
      deps.logger.info({ leadId, attempts, provider: deps.provider.name }, 'SMS handed to the provider');
      return 'sent';
    } catch (error) {
      const failure =
        error instanceof SmsSendError
          ? error
          : new SmsSendError((error as Error).message, 'transient', null);
      if (failure.kind === 'rate-limited') {
        deps.logger.warn({ leadId }, 'SMS provider rate limit: pausing the queue');
        // The job goes back to the queue without using an attempt: hand the claim back
        // (status and attempts as they were) so that its next run can take it.
        await recordSmsTransition(deps.db, sms.sms_id, {
          status: sms.status,
          attempts: sms.attempts,
          provider: deps.provider.name,
          errorCode: failure.code,
          errorMessage: failure.message,
        });
        await deps.rateLimit(failure.retryAfterMs);
        throw Worker.RateLimitError();
      }
      const lastAttempt = failure.kind === 'permanent' || attempts >= (job.opts.attempts ?? 1);
      await recordSmsTransition(deps.db, sms.sms_id, {
        status: lastAttempt ? 'failed' : 'retrying',
        attempts,
        provider: deps.provider.name,
        errorCode: failure.code,
        errorMessage: failure.message,
      });
      deps.logger.warn(
        { leadId, attempts, kind: failure.kind, code: failure.code },
        lastAttempt ? 'SMS failed for good; sending the link by email' : 'SMS failed; will retry',
      );
      if (!lastAttempt) throw failure;
      await sendGuideLinkByEmail(deps, leadId);
      throw new UnrecoverableError(failure.message);
    }
  };
}
