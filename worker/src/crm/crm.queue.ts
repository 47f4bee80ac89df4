import type { QueueDeclaration } from '../queue-declaration';
import { createDeliverToCrm } from './deliver-to-crm';

/** Leads to the CRM webhook: slow retries (60 s base, 10 attempts) over about 8.5 hours. */
export const crmQueue: QueueDeclaration = {
  queue: 'crm',
  concurrency: (config) => config.WORKER_CONCURRENCY,
  retryBaseMs: (config) => config.CRM_RETRY_BASE_MS,
  processor: ({ config, db, logger, claimTimeouts }) =>
    createDeliverToCrm({
      db,
      logger,
      webhook:
        config.CRM_WEBHOOK_URL && config.CRM_WEBHOOK_SECRET
          ? { url: config.CRM_WEBHOOK_URL, secret: config.CRM_WEBHOOK_SECRET, timeoutMs: config.CRM_TIMEOUT_MS }
          : null,
      claimTimeoutMs: claimTimeouts.crm,
    }),
};
