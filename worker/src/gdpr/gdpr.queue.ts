import type { QueueDeclaration } from '../queue-declaration';
import { createProcessDataRequest } from './process-data-request';

/** Data requests an admin accepted: export, erasure, rectification (30 s base, 8 attempts). */
export const gdprQueue: QueueDeclaration = {
  queue: 'gdpr',
  // Requests are rare and an erasure scans queues: one or two at a time is plenty.
  concurrency: () => 2,
  retryBaseMs: (config) => config.GDPR_RETRY_BASE_MS,
  processor: ({ config, db, queues, logger }) =>
    createProcessDataRequest({
      db,
      queues,
      logger,
      retentionMonths: config.RETENTION_MONTHS,
      suppressionHashSecret: config.SUPPRESSION_HASH_SECRET,
    }),
};
