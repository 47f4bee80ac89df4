import type { Page } from 'playwright-core';

/**
 * Resolves once the browser has been idle twice after hydration: the work public pages
 * queue for the first idle moment (cookie check, widgets, tracking) has all run.
 */
export function afterIdleWork(page: Page) {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestIdleCallback(() => setTimeout(() => requestIdleCallback(() => resolve()), 0))),
  );
}
