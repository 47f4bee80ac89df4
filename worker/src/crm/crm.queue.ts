import type { QueueDeclaration } from '../queue-declaration';
import { createDeliverToCrm } from './deliver-to-crm';
import { isDeprecatedSecretForm } from '@guida/shared/server/webhook-signature';

/** Leads to the CRM webhook: slow retries (60 s base, 10 attempts) over about 8.5 hours. */
export const crmQueue: QueueDeclaration = {
  queue: 'crm',
  concurrency: (config) => config.WORKER_CONCURRENCY,
  retryBaseMs: (config) => config.CRM_RETRY_BASE_MS,
  processor: ({ config, db, logger, metrics, claimTimeouts }) => {
    const { CRM_WEBHOOK_URL: url, CRM_WEBHOOK_SECRET: secret, CRM_WEBHOOK_SECRET_PREVIOUS: previousSecret } = config;
    const oldForm = (['CRM_WEBHOOK_SECRET', 'CRM_WEBHOOK_SECRET_PREVIOUS'] as const).filter((name) => {
      const value = config[name];
      return value !== undefined && isDeprecatedSecretForm(value);
    });
    if (url && oldForm.length > 0) {
      logger.warn(
        { variables: oldForm },
        'CRM webhook secret of the old form (no whsec_ prefix): accepted in this release only; see docs/crm-webhook.md',
      );
    }
    return createDeliverToCrm({
      db,
      logger,
      metrics,
      webhook: url && secret ? { url, secret, previousSecret, timeoutMs: config.CRM_TIMEOUT_MS } : null,
      claimTimeoutMs: claimTimeouts.crm,
      suppressionHashSecret: config.SUPPRESSION_HASH_SECRET,
    });
  },
};
