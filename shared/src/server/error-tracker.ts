import type { ErrorEvent } from '@sentry/node';

export interface ErrorTrackerSettings {
  SENTRY_DSN?: string | undefined;
  NODE_ENV: string;
}

export interface ErrorTracker {
  /** Sends the events still queued (within `timeoutMs`); the process is about to exit. */
  close(timeoutMs: number): Promise<void>;
}

const REDACTED = '[redacted]';
const EMAIL = /[^\s@"'<>()[\]{},;:]+@[^\s@"'<>()[\]{},;:]+\.[a-z]{2,}/gi;
/** Nine digits or more, with an optional + or 00 and single separators: phone numbers, not dates. */
const PHONE = /(?:\+|\b00)?\d(?:[\s.\-/]?\d){8,}/g;
/** Request headers that carry no personal data and help read an error. */
const KEPT_HEADERS = new Set(['content-type', 'content-length', 'accept', 'x-request-id']);

/** A string with anything that looks like an email address or a phone number replaced. */
export function scrubText(text: string): string {
  return text.replace(EMAIL, REDACTED).replace(PHONE, REDACTED);
}

function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, depth + 1)]));
}

/** The URL without its query string, and with token-like path segments (guide links) masked. */
function scrubUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  return scrubText(path.replace(/\/[A-Za-z0-9_-]{16,}(?=\/|$)/g, `/${REDACTED}`));
}

/**
 * `beforeSend`: what leaves for the error tracker. Request bodies, cookies, query strings,
 * the user and most headers are dropped; whatever looks like an email address or a phone
 * number in the messages, stack frames, breadcrumbs, tags and extra data is replaced
 * (decision 057).
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const scrubbed: ErrorEvent = { ...event };
  delete scrubbed.user;
  if (event.request) {
    const { method, url, headers } = event.request;
    scrubbed.request = {
      ...(method ? { method } : {}),
      ...(url ? { url: scrubUrl(url) } : {}),
      ...(headers ? { headers: Object.fromEntries(Object.entries(headers).filter(([name]) => KEPT_HEADERS.has(name.toLowerCase()))) } : {}),
    };
  }
  if (event.message) scrubbed.message = scrubText(event.message);
  if (event.exception?.values) {
    scrubbed.exception = {
      ...event.exception,
      values: event.exception.values.map((exception) => ({
        ...exception,
        ...(exception.value ? { value: scrubText(exception.value) } : {}),
        // Source lines around each frame, and local variables if a tracker adds them.
        ...(exception.stacktrace?.frames
          ? { stacktrace: { ...exception.stacktrace, frames: exception.stacktrace.frames.map((frame) => scrubValue(frame) as typeof frame) } }
          : {}),
      })),
    };
  }
  if (event.breadcrumbs) {
    scrubbed.breadcrumbs = event.breadcrumbs.map((breadcrumb) => ({
      ...breadcrumb,
      ...(breadcrumb.message ? { message: scrubText(breadcrumb.message) } : {}),
      ...(breadcrumb.data
        ? { data: scrubValue({ ...breadcrumb.data, ...(typeof breadcrumb.data.url === 'string' ? { url: scrubUrl(breadcrumb.data.url) } : {}) }) as Record<string, unknown> }
        : {}),
    }));
  }
  if (event.extra) scrubbed.extra = scrubValue(event.extra) as Record<string, unknown>;
  if (event.tags) scrubbed.tags = scrubValue(event.tags) as ErrorEvent['tags'];
  return scrubbed;
}

let capture: ((error: unknown, tags: Record<string, string>) => void) | undefined;

/** Reports an unexpected error to the tracker, when one is configured; otherwise does nothing. */
export function reportError(error: unknown, tags: Record<string, string> = {}) {
  capture?.(error, tags);
}

/**
 * Starts the Sentry SDK when SENTRY_DSN is set: errors only (no tracing, no default
 * personal data), every event through `scrubEvent`. Unset, it loads nothing.
 */
export async function startErrorTracking(settings: ErrorTrackerSettings, serviceName: string): Promise<ErrorTracker | undefined> {
  if (!settings.SENTRY_DSN) return undefined;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: settings.SENTRY_DSN,
    environment: settings.NODE_ENV,
    serverName: serviceName,
    // The SDK's successor of `sendDefaultPii: false`: no user, cookies, headers, bodies,
    // query strings, job arguments, query data or local variables are collected.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      databaseQueryData: false,
      queues: false,
      stackFrameVariables: false,
    },
    // Errors only: traces go through OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT), and no
    // module is rewritten at load time for the tracker.
    enableRuntimeChannelInjection: false,
    defaultIntegrations: Sentry.getDefaultIntegrationsWithoutPerformance(),
    beforeSend: scrubEvent,
    beforeBreadcrumb: (breadcrumb) => (breadcrumb.category === 'console' ? null : breadcrumb),
  });
  capture = (error, tags) => {
    Sentry.captureException(error, { tags });
  };
  return {
    async close(timeoutMs) {
      capture = undefined;
      await Sentry.close(timeoutMs);
    },
  };
}
