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

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker shutting down');
  // Closing waits on Redis; if Redis is unreachable that could be forever.
  const force = setTimeout(() => {
    logger.error('worker shutdown timed out; exiting');
    process.exit(1);
  }, config.SHUTDOWN_GRACE_MS + 5000);
  force.unref();
  await runtime.close(config.SHUTDOWN_GRACE_MS);
  await deps.close();
  logger.info('worker stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
