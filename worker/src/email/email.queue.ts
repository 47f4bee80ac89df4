import type { QueueDeclaration } from '../queue-declaration';
import { createSendEmail } from './send-email';

/** Emails (the guide link after a failed SMS, data-rights messages): 30 s base, 8 attempts. */
export const emailQueue: QueueDeclaration = {
  queue: 'email',
  // An SMTP server takes a handful of connections from one client, not fifty.
  concurrency: (config) => Math.min(config.WORKER_CONCURRENCY, 10),
  retryBaseMs: (config) => config.EMAIL_RETRY_BASE_MS,
  processor: ({ config, db, logger, mailer, claimTimeouts }) =>
    createSendEmail({
      db,
      logger,
      mailer,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      linkTokenSecret: config.LINK_TOKEN_SECRET,
      confirmLinkTtlHours: config.GDPR_CONFIRM_LINK_TTL_HOURS,
      exportLinkTtlDays: config.GDPR_EXPORT_LINK_TTL_DAYS,
      retentionMonths: config.RETENTION_MONTHS,
      claimTimeoutMs: claimTimeouts.email,
    }),
};
