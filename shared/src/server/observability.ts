import { startErrorTracking, type ErrorTrackerSettings } from './error-tracker';
import type { Logger } from './logger';
import { startTracing, type TracingOptions, type TracingSettings } from './tracing';

/** Time the error tracker gets to send what it holds when the process stops. */
const ERROR_TRACKER_CLOSE_MS = 2000;

/**
 * Traces (OTEL_EXPORTER_OTLP_ENDPOINT) and the error tracker (SENTRY_DSN), each started
 * only when configured: with neither, nothing is loaded. Awaited before the process
 * listens or starts its workers, so their HTTP calls are traced from the first.
 */
export async function startObservability(settings: TracingSettings & ErrorTrackerSettings, options: TracingOptions & { logger: Logger }) {
  const [tracing, errorTracker] = await Promise.all([
    startTracing(settings, options),
    startErrorTracking(settings, settings.OTEL_SERVICE_NAME ?? options.defaultServiceName),
  ]);
  if (tracing || errorTracker) {
    options.logger.info({ tracing: Boolean(tracing), errorTracking: Boolean(errorTracker) }, 'observability started');
  }
  return {
    /** Sends the spans and errors still buffered; a receiver that is down does not hold the exit. */
    async close() {
      await Promise.all([
        tracing?.shutdown().catch((error: Error) => options.logger.warn({ err: error.message }, 'could not send the last spans')),
        errorTracker?.close(ERROR_TRACKER_CLOSE_MS),
      ]);
    },
  };
}
