import type { AnalyticsEventInput } from '@guida/shared/schemas/analytics';
import type { VisitSessionAnswer } from '@guida/shared/schemas/visit-session';
import { ANALYTICS_TEXT_LIMITS, MAX_EVENTS_PER_BATCH } from '@guida/shared/analytics-rules';
import { isSessionId } from '@guida/shared/session-id';
import { whenIdle } from '../../lib/after-hydration';
import { randomId } from '../../lib/random-id';

/**
 * First-party analytics: events are queued and sent in batches (every few seconds, and
 * with sendBeacon when the page is hidden), each with its own id so a retried batch is
 * stored once, under the tab's signed visit session (decision 051). Failures are only
 * logged: tracking never disturbs the visitor.
 */
const VISIT_KEY = 'guida-visit';
/** The id of a tab's events sent without a visit session (it failed, or the page was left first). */
const SESSION_KEY = 'guida-analytics-session';
const FLUSH_AFTER_MS = 3000;
const FLUSH_AT_EVENTS = 20;

type Untracked<T> = T extends unknown ? Omit<T, 'sessionId' | 'eventId' | 'occurredAt' | 'visitSession'> : never;
export type TrackedEvent = Untracked<AnalyticsEventInput>;
type QueuedEvent = Omit<AnalyticsEventInput, 'sessionId'>;

/** The tab's visit session as kept: when it expires by this browser's clock. */
export interface VisitSession {
  sessionId: string;
  token: string;
  expiresAt: number;
}

let queue: QueuedEvent[] = [];
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

/**
 * The visit session the API issued this tab, while it holds: kept in sessionStorage (gone
 * with the tab, like the session id it replaces), and checked again when read back.
 */
let visit: VisitSession | null | undefined;
/** Whether asking for one failed: batches then go without it instead of waiting. */
let visitFailed = false;
let flushWhenVisit = false;

export function currentVisit(): VisitSession | undefined {
  if (visit === undefined) {
    try {
      const stored = JSON.parse(sessionStorage.getItem(VISIT_KEY) ?? 'null') as Partial<VisitSession> | null;
      visit =
        isSessionId(stored?.sessionId) && typeof stored.token === 'string' && typeof stored.expiresAt === 'number'
          ? { sessionId: stored.sessionId, token: stored.token, expiresAt: stored.expiresAt }
          : null;
    } catch {
      visit = null;
    }
  }
  return visit && visit.expiresAt > Date.now() ? visit : undefined;
}

/** The API's answer as kept: its lifetime counted on this browser's clock from now. */
export const visitOf = ({ sessionId, token, expiresIn }: VisitSessionAnswer): VisitSession => ({
  sessionId,
  token,
  expiresAt: Date.now() + expiresIn * 1000,
});

/** A new visit session for the tab (null: asking for one failed); held batches go out. */
export function setVisit(next: VisitSession | null) {
  visitFailed = next === null;
  if (next) {
    visit = next;
    try {
      sessionStorage.setItem(VISIT_KEY, JSON.stringify(next));
    } catch {
      // Storage refused (private mode, quota): the session lives for this page only.
    }
  }
  if (flushWhenVisit) flush();
}

/** The id of events sent without a visit session, kept in sessionStorage for the tab. */
function analyticsSessionId(): string {
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
  const signed = currentVisit();
  // Until the visit session arrives (the page is left before that: without it).
  flushWhenVisit = !signed && !visitFailed && !onPageHide;
  if (flushWhenVisit) return;
  const sessionId = signed?.sessionId ?? analyticsSessionId();
  while (queue.length > 0) {
    const events = queue.slice(0, MAX_EVENTS_PER_BATCH).map((event) => ({ ...event, sessionId }));
    queue = queue.slice(MAX_EVENTS_PER_BATCH);
    const body = JSON.stringify({ events, ...(signed ? { visitSession: signed.token } : {}) });
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
    eventId: uuid(),
    occurredAt: new Date().toISOString(),
  } as QueuedEvent);
  if (queue.length >= FLUSH_AT_EVENTS) flush();
  else timer ??= setTimeout(() => flush(), FLUSH_AFTER_MS);
}
