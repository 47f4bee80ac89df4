import { onShutdownSignal } from '@guida/shared/server/graceful-shutdown';
import { createLogger } from '@guida/shared/server/logger';
import { startObservability } from '@guida/shared/server/observability';
import { loadWorkerConfig } from './config';
import { createWorkerDependencies } from './dependencies';
import { startWorkerHttpServer } from './metrics';
import { startWorkers } from './start-workers';

const config = loadWorkerConfig();
const logger = createLogger({ service: 'worker', level: config.LOG_LEVEL });
const observability = await startObservability(config, { logger, defaultServiceName: 'guida-worker' });
const deps = createWorkerDependencies(config, logger);

// Listening first: a worker whose health port is taken would look dead to its supervisor.
startWorkerHttpServer(deps).then(
  (server) => {
    const runtime = startWorkers(deps);
    logger.info(
      {
        smsProvider: deps.smsProvider.name,
        mailer: deps.mailer.name,
        crm: Boolean(config.CRM_WEBHOOK_URL),
        healthPort: config.WORKER_METRICS_PORT,
        metrics: Boolean(config.METRICS_TOKEN),
      },
      'worker started',
    );

    onShutdownSignal({
      service: 'worker',
      logger,
      // Closing waits on Redis; if Redis is unreachable that could be forever.
      forceAfterMs: config.SHUTDOWN_GRACE_MS + 5000,
      async stop() {
        server.close();
        server.closeIdleConnections();
        await runtime.close(config.SHUTDOWN_GRACE_MS);
        await deps.close();
        await observability.close();
      },
    });
  },
  (error: Error) => {
    logger.fatal({ err: error.message, port: config.WORKER_METRICS_PORT }, 'worker could not listen on WORKER_METRICS_PORT');
    process.exit(1);
  },
);
