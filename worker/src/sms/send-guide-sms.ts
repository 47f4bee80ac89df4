import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { scheduleEmail } from '@guida/shared/deliveries/email-deliveries';
import {
  claimSms,
  handBackSmsClaim,
  loadSmsToSend,
  restoreAbandonedSmsClaim,
  recordSmsFailure,
  recordSmsSent,
  skipSms,
  smsIsClaimable,
  smsStatus,
  type SmsBudgetCheck,
} from '@guida/shared/deliveries/sms-deliveries';
import { budgetName } from '@guida/shared/deliveries/sms-budget';
import { GUIDE_LINK_EMAIL } from '@guida/shared/jobs/email';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { daysLeft, guideLinkUrl } from '@guida/shared/lead-rules';
import { guideLinkToken, keyGuideLink } from '@guida/shared/server/guide-link-token';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import type { WorkerMetrics } from '../metrics';
import { guideSmsText } from './guide-sms-text';
import { SmsSendError, type SmsProvider } from '../providers/sms-provider';

export interface SendGuideSmsDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  metrics: Pick<WorkerMetrics, 'smsSent' | 'smsFailed'>;
  provider: SmsProvider;
  publicBaseUrl: string;
  /** Keys the download links' tokens (decision 029). */
  linkTokenSecret: string;
  /** A claim older than this was left by a worker that stopped mid-send. */
  claimTimeoutMs: number;
  /** Beyond these the SMS is held, not sent (decision 025). */
  budget: SmsBudgetCheck;
  /** Pauses the whole sms queue (every worker) after the provider answered 429. */
  rateLimit(ms: number): Promise<void>;
  /** A place of SMS_RATE_PER_SECOND within `maxWaitMs`, or false (send-rate.ts). */
  waitForSendSlot(maxWaitMs: number): Promise<boolean>;
}

/** Clocks of ours and the provider's may differ this much when the earlier SMS is looked for. */
const PROVIDER_CLOCK_MARGIN_MS = 60_000;
/** How long a claimed SMS waits for a place of the SMS rate before its job goes back to the queue. */
const SEND_SLOT_WAIT_MS = 10_000;

/**
 * Sends the guide link by SMS, once. The job may run more than once, even two runs at the
 * same time (retries, sweeper, a stalled job recovered while its first run still sends),
 * so it claims the SMS (`sending`) before calling the provider and does nothing unless
 * the claim succeeds; a phone that already got an SMS from another lead in 24 h is
 * skipped. A claim left by a worker that stopped mid-send is taken over once it is older
 * than the claim timeout, and the provider is asked whether it got that SMS before it is
 * sent again (decision 021). An SMS that would exceed an SMS budget is held, with no
 * provider call; the sweeper or an admin puts it back (decision 025).
 */
export function createSendGuideSms(deps: SendGuideSmsDeps) {
  return async function sendGuideSms(job: Job): Promise<string> {
    const { leadId } = sendGuideSmsJob.schema.parse(job.data);
    const sms = await loadSmsToSend(deps.db, leadId);
    if (!sms) return 'skipped: the lead no longer exists';
    const loadedAt = performance.now();
    // PostgreSQL's age of the lead when loaded, plus this process's own elapsed time: no clocks compared.
    const secondsSinceLead = () => sms.seconds_since_lead + (performance.now() - loadedAt) / 1000;
    if (!smsIsClaimable(sms.status)) return `skipped: already ${sms.status}`;

    const attempts = job.attemptsMade + 1;
    if (sms.phone_recently_served && (await skipSms(deps.db, sms.sms_id, 'this phone already received the guide in the last 24 hours'))) {
      return 'skipped: phone already served within 24 h';
    }
    // Held past SMS_HELD_EMAIL_AFTER_MINUTES, the link went by email: once the guide is
    // downloaded, a late SMS would only cost money and surprise the visitor.
    if (sms.guide_downloaded && (await skipSms(deps.db, sms.sms_id, 'the guide was downloaded from the link sent by email'))) {
      return 'skipped: guide already downloaded';
    }

    const claim = await claimSms(deps.db, sms, attempts, deps.claimTimeoutMs, deps.budget);
    if (!claim) {
      const status = await smsStatus(deps.db, sms.sms_id);
      return status ? `skipped: already ${status}` : 'skipped: the lead no longer exists';
    }
    if (typeof claim === 'object') {
      deps.logger.warn({ leadId, budget: budgetName(claim.held) }, 'SMS budget reached: SMS held');
      return `held: ${budgetName(claim.held)} reached`;
    }

    // The token exists only in the message: the database keeps its hash.
    const { token, hash } = guideLinkToken(deps.linkTokenSecret, leadId);
    if (sms.token_hash !== hash) await keyGuideLink(deps.db, leadId, hash);
    const link = guideLinkUrl(deps.publicBaseUrl, token);
    if (claim === 'taken-over') {
      const earlier = await deps.provider
        .findSent({ to: sms.telefono, marker: link, since: new Date(sms.updated_at.getTime() - PROVIDER_CLOCK_MARGIN_MS) })
        .catch(async (error: unknown) => {
          // Unknown whether it went: the claim stays abandoned, so the next run asks again.
          await restoreAbandonedSmsClaim(deps.db, sms);
          throw error;
        });
      if (earlier) {
        await recordSmsSent(deps.db, sms.sms_id, {
          attempts,
          provider: deps.provider.name,
          providerMessageId: earlier.providerMessageId,
          note: 'found at the provider: sent before its worker stopped',
        });
        deps.metrics.smsSent(secondsSinceLead());
        deps.logger.warn({ leadId }, 'SMS of a stopped worker found at the provider: not sent again');
        return 'sent before its worker stopped';
      }
      deps.logger.warn({ leadId }, 'SMS of a stopped worker not found at the provider: sending it');
    }

    if (!(await deps.waitForSendSlot(SEND_SLOT_WAIT_MS))) {
      // The job goes back to the queue without using an attempt: so does the claim.
      await handBackSmsClaim(deps.db, sms, {
        provider: deps.provider.name,
        errorCode: null,
        errorMessage: 'no place in SMS_RATE_PER_SECOND yet',
      });
      await deps.rateLimit(1000);
      throw Worker.RateLimitError();
    }

    try {
      const body = guideSmsText({ nome: sms.nome, link, validDays: daysLeft(sms.expires_at) });
      const { providerMessageId } = await deps.provider.send({ to: sms.telefono, body, leadId, smsId: sms.sms_id });
      deps.metrics.smsSent(secondsSinceLead());
      await recordSmsSent(deps.db, sms.sms_id, { attempts, provider: deps.provider.name, providerMessageId });
      deps.logger.info({ leadId, attempts, provider: deps.provider.name }, 'SMS handed to the provider');
      return 'sent';
    } catch (error) {
      const failure =
        error instanceof SmsSendError
          ? error
          : new SmsSendError((error as Error).message, 'transient', null);
      const reason = { provider: deps.provider.name, errorCode: failure.code, errorMessage: failure.message };
      const final = failure.kind === 'permanent' || attempts >= (job.opts.attempts ?? 1);
      deps.metrics.smsFailed(failure.kind, failure.kind !== 'rate-limited' && final);
      if (failure.kind === 'rate-limited') {
        deps.logger.warn({ leadId }, 'SMS provider rate limit: pausing the queue');
        // The job goes back to the queue without using an attempt: so does the claim.
        await handBackSmsClaim(deps.db, sms, reason);
        await deps.rateLimit(failure.retryAfterMs);
        throw Worker.RateLimitError();
      }
      await recordSmsFailure(deps.db, sms.sms_id, { ...reason, final, attempts });
      deps.logger.warn(
        { leadId, attempts, kind: failure.kind, code: failure.code },
        final ? 'SMS failed for good; sending the link by email' : 'SMS failed; will retry',
      );
      if (!final) throw failure;
      await scheduleEmail(deps, { leadId }, GUIDE_LINK_EMAIL);
      throw new UnrecoverableError(failure.message);
    }
  };
}
