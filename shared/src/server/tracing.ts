import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

export interface TracingSettings {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_SERVICE_NAME?: string | undefined;
}

export interface TracingOptions {
  /** `service.name` when OTEL_SERVICE_NAME is unset. */
  defaultServiceName: string;
  /** The route template a request matched (never its path), named on its server span. */
  routeOf?: (request: IncomingMessage) => string;
}

export interface Tracing {
  /** Sends the spans still buffered; the process is about to exit. */
  shutdown(): Promise<void>;
}

/** Probes and scrapes: a span per poll would bury the requests that matter. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/health', '/metrics']);

/**
 * The only span attributes that leave the process. Whatever else an instrumentation
 * records (the raw path and query, which carry guide tokens; the client's address and
 * user agent; the full URL) is dropped, so personal data cannot reach the receiver by an
 * instrumentation adding an attribute.
 */
const EXPORTED_ATTRIBUTES = new Set([
  'http.method',
  'http.request.method',
  'http.status_code',
  'http.response.status_code',
  'http.route',
  'http.flavor',
  'network.protocol.version',
  'net.peer.name',
  'net.peer.port',
  'server.address',
  'server.port',
  'error.type',
  'messaging.system',
  'messaging.operation.type',
  'messaging.destination.name',
  'messaging.message.id',
  'guida.job.name',
  'guida.job.attempt',
]);
/** An exception event keeps its type only: vendor messages can quote the phone number. */
const EXPORTED_EVENT_ATTRIBUTES = new Set(['exception.type']);

const only = (attributes: Attributes, allowed: ReadonlySet<string>): Attributes =>
  Object.fromEntries(Object.entries(attributes).filter(([key]) => allowed.has(key)));

/** The span as exported: allowed attributes only, and no status message (an error's text). */
export function scrubSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: only(span.attributes, EXPORTED_ATTRIBUTES) },
    events: { value: span.events.map((event) => ({ ...event, attributes: only(event.attributes ?? {}, EXPORTED_EVENT_ATTRIBUTES) })) },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}

class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]) {
    this.inner.export(spans.map(scrubSpan), done);
  }
  shutdown() {
    return this.inner.shutdown();
  }
  forceFlush() {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set: incoming and
 * outgoing HTTP spans, W3C trace context, batches of spans as OTLP/JSON. Unset, it returns
 * undefined and loads none of the SDK (decision 057). Called before the process listens or
 * sends anything: the HTTP modules are patched here.
 */
export async function startTracing(settings: TracingSettings, options: TracingOptions): Promise<Tracing | undefined> {
  const endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  const [api, { TracerProvider, BatchSpanProcessor }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { resourceFromAttributes }, { OTLPTraceExporter }, { registerInstrumentations }, { HttpInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-http'),
    ]);

  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.OTEL_SERVICE_NAME ?? options.defaultServiceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new ScrubbingExporter(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` })) })],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);

  const { routeOf } = options;
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
        // Outgoing calls are traced inside a request or a job, not on their own (exports, probes).
        requireParentforOutgoingSpans: true,
        applyCustomAttributesOnSpan: (span, request) => {
          if (!routeOf || !('headers' in request) || !request.method) return;
          const route = routeOf(request);
          span.setAttribute('http.route', route);
          span.updateName(`${request.method} ${route}`);
        },
      }),
    ],
  });
  // The bundles loaded node:http and node:https before this ran: requiring them again lets
  // the instrumentation patch the modules everyone already holds.
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');

  return {
    shutdown: () => provider.shutdown(),
  };
}
