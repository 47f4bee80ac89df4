export { createWorkerMetrics, type WorkerMetrics } from './worker-metrics';
export { startWorkerHttpServer } from './worker-http-server';
