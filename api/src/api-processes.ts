import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@guida/shared/server/logger';
import { answerClusterMetricsRequests } from './metrics';

/**
 * Runs `count` API processes on one port (node:cluster hands each new connection to the
 * next one) and keeps them running: one API process is single-threaded, so this is how the
 * API uses the machine's cores. A process that stops after it was listening is replaced;
 * one that stops before it ever listened (the port is taken, the database URL is wrong)
 * would only fail again, so everything stops with an error instead. SIGTERM or SIGINT is
 * passed on, and the supervisor exits once every process has finished its own graceful
 * shutdown.
 */
export function superviseApiProcesses({ count, graceMs, logger }: { count: number; graceMs: number; logger: Logger }) {
  const running = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of running) worker.process.kill(signal);
    if (running.size === 0) process.exit(exitCode);
    // Each process bounds its own shutdown by the same grace period; this is the backstop.
    setTimeout(() => {
      logger.error('api processes did not stop in time; exiting');
      process.exit(1);
    }, graceMs + 5000).unref();
  };

  const start = () => {
    const worker = cluster.fork();
    let listened = false;
    running.add(worker);
    worker.once('listening', () => (listened = true));
    worker.once('exit', (code, signal) => {
      running.delete(worker);
      if (stopping) {
        if (running.size === 0) {
          logger.info('api stopped');
          process.exit(exitCode);
        }
        return;
      }
      if (!listened) {
        logger.fatal(
          { pid: worker.process.pid, code, signal },
          'an api process stopped before it could listen; stopping',
        );
        exitCode = 1;
        stopAll('SIGTERM');
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, 'an api process stopped; starting another');
      start();
    });
  };

  answerClusterMetricsRequests();
  for (let index = 0; index < count; index += 1) start();
  logger.info({ processes: count }, 'api supervisor started');
  process.on('SIGTERM', () => stopping || stopAll('SIGTERM'));
  process.on('SIGINT', () => stopping || stopAll('SIGTERM'));
}
