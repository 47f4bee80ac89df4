import type { AnalyticsEventInput } from '@guida/shared/schemas/analytics';
import { ANALYTICS_TEXT_LIMITS, MAX_EVENTS_PER_BATCH } from '@guida/shared/analytics-rules';
import { isSessionId } from '@guida/shared/session-id';
import { whenIdle } from '../../lib/after-hydration';
import { randomId } from '../../lib/random-id';

/**
 * First-party analytics: events are queued and sent in batches (every few seconds, and
 * with sendBeacon when the page is hidden), each with its own id so a retried batch is
 * stored once. Failures are only logged: tracking never disturbs the visitor.
 */
const SESSION_KEY = 'guida-analytics-session';
const FLUSH_AFTER_MS = 3000;
const FLUSH_AT_EVENTS = 20;

type Untracked<T> = T extends unknown ? Omit<T, 'sessionId' | 'eventId' | 'occurredAt'> : never;
export type TrackedEvent = Untracked<AnalyticsEventInput>;

let queue: AnalyticsEventInput[] = [];
let pageStartedAt = Date.now();
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;
const beforePageHide = new Set<() => void>();

/** Runs `callback` when the page is being left, before the last batch goes out. */
export function onPageHide(callback: () => void) {
  listenForPageHide();
  beforePageHide.add(callback);
  return () => {
    beforePageHide.delete(callback);
  };
}

/**
 * Runs `callback` once the browser is idle after hydration, or as the page is left if that
 * comes first: an event deferred for the start-up's sake is still recorded on a quick exit.
 */
export function whenIdleOrLeaving(callback: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    stopOnHide();
    callback();
  };
  // Registered first: whenIdle runs the callback at once when the idle moment has passed.
  const stopOnHide = onPageHide(once);
  const cancelIdle = whenIdle(once);
  return () => {
    cancelIdle();
    stopOnHide();
  };
}

/** The tab's analytics session, kept in sessionStorage and reused for the whole session. */
export function analyticsSessionId(): string {
  try {
    const existing = sessionStorage.getItem(SESSION_KEY);
    if (isSessionId(existing)) return existing;
    const created = randomId();
    sessionStorage.setItem(SESSION_KEY, created);
    return created;
  } catch {
    return randomId();
  }
}

function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Called on every page view: time on page counts from here. */
export function startPage() {
  pageStartedAt = Date.now();
}

export function secondsOnPage() {
  return Math.min(86_400, Math.round((Date.now() - pageStartedAt) / 1000));
}

export function flush(onPageHide = false) {
  clearTimeout(timer);
  timer = undefined;
  while (queue.length > 0) {
    const events = queue.slice(0, MAX_EVENTS_PER_BATCH);
    queue = queue.slice(MAX_EVENTS_PER_BATCH);
    const body = JSON.stringify({ events });
    if (onPageHide && navigator.sendBeacon?.('/api/analytics/batch', new Blob([body], { type: 'application/json' }))) {
      continue;
    }
    fetch('/api/analytics/batch', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      keepalive: true,
      credentials: 'include',
    })
      .then((response) => {
        if (!response.ok) console.warn(`analytics batch: HTTP ${response.status}`);
      })
      .catch((error: unknown) => console.warn('analytics batch failed', error));
  }
}

function listenForPageHide() {
  if (listening) return;
  listening = true;
  window.addEventListener('pagehide', () => {
    for (const callback of beforePageHide) callback();
    flush(true);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush(true);
  });
}

/** A URL without its query string and fragment: tokens and click ids stay in the browser. */
export function withoutQuery(url: string): string {
  return url.split(/[?#]/, 1)[0]!;
}

/** The event's texts cut to what the API accepts (a long unknown path, an error message). */
function withinLimits(event: TrackedEvent): TrackedEvent {
  const clipped: Record<string, unknown> = { ...event };
  for (const [field, limit] of Object.entries(ANALYTICS_TEXT_LIMITS)) {
    const value = clipped[field];
    if (typeof value === 'string') clipped[field] = value.slice(0, limit);
  }
  return clipped as TrackedEvent;
}

export function track(event: TrackedEvent) {
  if (typeof window === 'undefined') return;
  listenForPageHide();
  queue.push({
    ...withinLimits(event),
    sessionId: analyticsSessionId(),
    eventId: uuid(),
    occurredAt: new Date().toISOString(),
  } as AnalyticsEventInput);
  if (queue.length >= FLUSH_AT_EVENTS) flush();
  else timer ??= setTimeout(() => flush(), FLUSH_AFTER_MS);
}
