import type { Logger } from './logger';

/**
 * On SIGTERM or SIGINT, runs `stop` once and exits 0; exits 1 if it has not finished
 * within `forceAfterMs` (a dependency that never answers must not keep the process alive).
 */
export function onShutdownSignal(options: {
  service: string;
  logger: Logger;
  forceAfterMs: number;
  stop: () => Promise<void>;
}) {
  const { service, logger } = options;
  let stopping = false;
  async function shutdown(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${service} shutting down`);
    const force = setTimeout(() => {
      logger.error(`${service} shutdown timed out; exiting`);
      process.exit(1);
    }, options.forceAfterMs);
    force.unref();
    await options.stop();
    logger.info(`${service} stopped`);
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
