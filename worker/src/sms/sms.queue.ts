import { smsBudgetLimits } from '@guida/shared/deliveries/sms-budget';
import type { QueueDeclaration } from '../queue-declaration';
import { createSendGuideSms } from './send-guide-sms';
import { createSendRate } from './send-rate';

/** The guide SMS: fast retries (2 s base, 6 attempts) to stay inside the 2-minute promise. */
export const smsQueue: QueueDeclaration = {
  queue: 'sms',
  concurrency: (config) => config.WORKER_CONCURRENCY,
  retryBaseMs: (config) => config.SMS_RETRY_BASE_MS,
  processor: (deps) =>
    createSendGuideSms({
      db: deps.db,
      queues: deps.queues,
      logger: deps.logger,
      metrics: deps.metrics,
      provider: deps.smsProvider,
      publicBaseUrl: deps.config.PUBLIC_BASE_URL,
      linkTokenSecret: deps.config.LINK_TOKEN_SECRET,
      claimTimeoutMs: deps.claimTimeouts.sms,
      budget: { limits: smsBudgetLimits(deps.config), now: deps.now },
      rateLimit: (ms) => deps.queues.queue('sms').rateLimit(ms),
      // SMS_RATE_PER_SECOND is the account's rate, shared by every worker process; taken
      // only by SMS that go to the provider (not by held ones), so no queue limiter.
      waitForSendSlot: createSendRate(deps.connection, deps.config.REDIS_KEY_PREFIX, deps.config.SMS_RATE_PER_SECOND),
    }),
};
