import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Processor } from 'bullmq';
import { jobTraceContext, type QueueName } from '@guida/shared/jobs/definition';

/**
 * Runs each job in a `process <queue>` span, a child of the request that enqueued it when
 * the job carries its trace context (`trace`, validated here): the vendor calls the job
 * makes (Twilio, the CRM) become its children. With tracing off the spans are no-ops.
 */
export function tracedProcessor(queue: QueueName, processor: Processor): Processor {
  const tracer = trace.getTracer('guida-worker');
  return (job, token, signal) => {
    const carrier = jobTraceContext.safeParse((job.data as { trace?: unknown } | undefined)?.trace);
    const parent = carrier.success ? propagation.extract(ROOT_CONTEXT, carrier.data) : ROOT_CONTEXT;
    const attributes = {
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'process',
      'messaging.destination.name': queue,
      'messaging.message.id': job.id ?? '',
      'guida.job.name': job.name,
      'guida.job.attempt': job.attemptsMade + 1,
    };
    return tracer.startActiveSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
      try {
        return await processor(job, token, signal);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
        throw error;
      } finally {
        span.end();
      }
    });
  };
}
