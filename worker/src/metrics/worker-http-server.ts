import { createServer, type Server, type ServerResponse } from 'node:http';
import { metricsAccess } from '@guida/shared/server/metrics-access';
import type { WorkerDeps } from '../queue-declaration';
import { checkDependencies } from './dependency-health';

/**
 * The worker's own small HTTP server on WORKER_METRICS_HOST:WORKER_METRICS_PORT (this
 * machine only, by default): `GET /health` (no token;
 * 200 when Redis and PostgreSQL answer, else 503 naming the one that does not) for
 * container health checks, and `GET /metrics` for Prometheus (404 without METRICS_TOKEN,
 * 401 without that bearer token). Resolves once listening; rejects when it cannot listen.
 */
export async function startWorkerHttpServer(
  deps: Pick<WorkerDeps, 'db' | 'connection' | 'config' | 'logger' | 'metrics'>,
): Promise<Server> {
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const answer = async () => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { message: 'GET only' });
      if (path === '/health') {
        const health = await checkDependencies(deps);
        return send(res, health.status === 'ok' ? 200 : 503, health);
      }
      if (path === '/metrics') {
        const access = metricsAccess(deps.config.METRICS_TOKEN, req.headers.authorization);
        if (access === 'off') return send(res, 404, { message: 'not found' });
        if (access === 'denied') {
          deps.logger.warn('metrics requested without the right token');
          res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
          return send(res, 401, { message: 'missing or wrong bearer token' });
        }
        const text = await deps.metrics.registry.metrics();
        res.writeHead(200, { 'Content-Type': deps.metrics.registry.contentType, 'Cache-Control': 'no-store' });
        return res.end(text);
      }
      return send(res, 404, { message: 'not found' });
    };
    answer().catch((error: Error) => {
      deps.logger.error({ err: error.message, path }, 'worker http request failed');
      if (!res.headersSent) send(res, 500, { message: 'internal error' });
      else res.destroy();
    });
  });
  // Probes and scrapes are short; nothing should hold a connection open at shutdown.
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.config.WORKER_METRICS_PORT, deps.config.WORKER_METRICS_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
