import cluster from 'node:cluster';
import { onShutdownSignal } from '@guida/shared/server/graceful-shutdown';
import { createLogger, type Logger } from '@guida/shared/server/logger';
import { startObservability } from '@guida/shared/server/observability';
import type { Request } from 'express';
import { superviseApiProcesses } from './api-processes';
import { createApp } from './app';
import { loadApiConfig, type ApiConfig } from './config';
import { createApiDependencies } from './dependencies';
import { routeTemplate } from './metrics';
import { createNoWorkerAlert } from './no-worker-alert/no-worker-alert';
import { recordOfferAtStart } from './offer';

const config = loadApiConfig();
const logger = createLogger({ service: 'api', level: config.LOG_LEVEL });
if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
  superviseApiProcesses({
    count: config.WEB_CONCURRENCY,
    graceMs: config.SHUTDOWN_GRACE_MS,
    logger,
  });
} else {
  const observability = await startObservability(config, {
    logger,
    defaultServiceName: 'guida-api',
    // Express has matched the route by the time the server span ends.
    routeOf: (request) => routeTemplate(request as Request),
  });
  serve(config, logger, observability);
}

function serve(config: ApiConfig, logger: Logger, observability: { close(): Promise<void> }) {
  const deps = createApiDependencies(config, logger);
  const app = createApp(deps);
  recordOfferAtStart(deps);
  // Alerts when every worker is dead, which the worker's own alerts cannot (decision 058).
  const noWorkerAlert = createNoWorkerAlert(deps);
  noWorkerAlert.start();

  // Express 5 calls this back on a failed listen too (with the error, handled below).
  const server = app.listen(config.PORT, (error?: Error) => {
    if (!error) logger.info({ port: config.PORT, url: config.PUBLIC_BASE_URL }, 'api listening');
  });
  // Longer than the idle timeout of common load balancers, so they close connections first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('error', (error) => {
    logger.fatal({ err: error.message }, 'api could not listen');
    process.exit(1);
  });

  onShutdownSignal({
    service: 'api',
    logger,
    forceAfterMs: config.SHUTDOWN_GRACE_MS,
    async stop() {
      server.close();
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.once('close', () => resolve()));
      await noWorkerAlert.stop();
      await deps.close();
      await observability.close();
    },
  });
}
