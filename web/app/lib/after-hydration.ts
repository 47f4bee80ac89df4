import { startTransition, useEffect, useState } from 'react';

/**
 * Work the first paint and the first interaction do not need (tracking, live figures,
 * the cookie check, tooltips) waits until the browser is idle after hydration, so that
 * it runs in small tasks of its own instead of lengthening hydration's commit, which
 * cannot be split. The timeout bounds the wait on a page that never goes idle.
 */
const IDLE_TIMEOUT_MS = 2000;

let pending: (() => void)[] = [];
let scheduled = false;
let reached = false;

/**
 * One callback per task: each may start its own render, commit and requests, and all of
 * them in one task made a long task of their own.
 */
function runPending() {
  reached = true;
  scheduled = false;
  pending.shift()?.();
  if (pending.length > 0) {
    scheduled = true;
    setTimeout(runPending, 0);
  }
}

/** Runs `callback` once the browser is idle; returns a function that cancels it. */
export function whenIdle(callback: () => void): () => void {
  // After the first idle moment (client-side navigations) there is no hydration to wait for.
  if (reached) {
    callback();
    return () => {};
  }
  pending.push(callback);
  if (!scheduled) {
    scheduled = true;
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(runPending, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(runPending, 200);
  }
  return () => {
    pending = pending.filter((item) => item !== callback);
  };
}

/**
 * False while the page hydrates, true from the first idle moment after it (as a
 * transition, so the re-render it causes can be interrupted). Pages reached by a
 * client-side navigation later start at true.
 */
export function useAfterHydrationIdle(): boolean {
  const [idle, setIdle] = useState(reached);
  useEffect(() => {
    if (idle) return;
    return whenIdle(() => startTransition(() => setIdle(true)));
  }, [idle]);
  return idle;
}

/** Mounts `children` (and so starts their effects and requests) from the first idle moment. */
export function AfterHydrationIdle({ children }: { children: React.ReactNode }) {
  return useAfterHydrationIdle() ? children : null;
}
