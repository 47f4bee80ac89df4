import { onShutdownSignal } from '@guida/shared/server/graceful-shutdown';
import { createLogger } from '@guida/shared/server/logger';
import { loadWorkerConfig } from './config';
import { createWorkerDependencies } from './dependencies';
import { startWorkers } from './start-workers';

const config = loadWorkerConfig();
const logger = createLogger({ service: 'worker', level: config.LOG_LEVEL });
const deps = createWorkerDependencies(config, logger);
const runtime = startWorkers(deps);
logger.info(
  { smsProvider: deps.smsProvider.name, mailer: deps.mailer.name, crm: Boolean(config.CRM_WEBHOOK_URL) },
  'worker started',
);

onShutdownSignal({
  service: 'worker',
  logger,
  // Closing waits on Redis; if Redis is unreachable that could be forever.
  forceAfterMs: config.SHUTDOWN_GRACE_MS + 5000,
  async stop() {
    await runtime.close(config.SHUTDOWN_GRACE_MS);
    await deps.close();
  },
});
