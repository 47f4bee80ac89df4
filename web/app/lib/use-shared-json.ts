import { useCallback, useSyncExternalStore } from 'react';
import { getJson } from './api-client';

interface Entry {
  data: unknown;
  loadedAt: number;
  loading: boolean;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

/** One entry per URL for the life of the page, so client-side navigations reuse what was read. */
const entries = new Map<string, Entry>();

function entryFor(url: string): Entry {
  let entry = entries.get(url);
  if (!entry) {
    entry = { data: undefined, loadedAt: Number.NEGATIVE_INFINITY, loading: false, listeners: new Set(), timer: null };
    entries.set(url, entry);
  }
  return entry;
}

/** A failed read keeps what is shown (no retry until the next refresh or mount). */
function load(entry: Entry, url: string) {
  if (entry.loading) return;
  entry.loading = true;
  getJson(url).then(
    (data) => {
      entry.loading = false;
      entry.data = data;
      entry.loadedAt = Date.now();
      for (const listener of entry.listeners) listener();
    },
    () => {
      entry.loading = false;
    },
  );
}

/**
 * JSON read from the API once the component mounts, shared by every component showing the
 * same URL (one request however many widgets show it). With `refreshMs` it is read again at
 * that interval while one of them is mounted and the tab is visible; without, once per page
 * life. Undefined until the first answer.
 */
export function useSharedJson<T>(url: string, refreshMs?: number): { data: T | undefined } {
  const subscribe = useCallback(
    (listener: () => void) => {
      const entry = entryFor(url);
      entry.listeners.add(listener);
      const age = Date.now() - entry.loadedAt;
      if (refreshMs === undefined ? entry.loadedAt < 0 : age >= refreshMs) load(entry, url);
      if (refreshMs !== undefined && entry.timer === null) {
        entry.timer = setInterval(() => {
          if (document.visibilityState !== 'hidden') load(entry, url);
        }, refreshMs);
      }
      return () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size === 0 && entry.timer !== null) {
          clearInterval(entry.timer);
          entry.timer = null;
        }
      };
    },
    [url, refreshMs],
  );
  const data = useSyncExternalStore(
    subscribe,
    () => entries.get(url)?.data as T | undefined,
    () => undefined,
  );
  return { data };
}
