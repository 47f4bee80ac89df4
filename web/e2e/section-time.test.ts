import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@guida/testing/wait-for';
import { sectionName } from '../app/components/article-body';
import { topicPages } from '../app/content/topics';
import { afterIdleWork } from './idle';
import { gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const SWISS_GOLD = topicPages.find((page) => page.path === '/oro-svizzera')!;
const chapter = (index: number) => sectionName(SWISS_GOLD.sections[index]!.heading);

const e2e = useSiteAndBrowser({}, { withWorker: true });

/** Returns once the tracker has measured the page where it now is (it measures in the frame after a scroll). */
function settled(page: Page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Opens `path`, lets the tracker start, runs `read`, leaves the site and returns the
 * section times stored once those of `expected` are (the worker stores each request's
 * events on its own, in the order it gets them).
 */
async function visit(path: string, viewport: typeof PHONE, expected: string[], read: (page: Page) => Promise<void>) {
  const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport });
  await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
  // The visit session the API issued arrives after the idle moment the page view is tracked
  // in (decision 051); the sections are observed from the next idle task on.
  const session = () => page.evaluate(() => (JSON.parse(sessionStorage.getItem('guida-visit') ?? 'null') as { sessionId: string } | null)?.sessionId);
  await expect.poll(session).toBeTruthy();
  const sessionId = await session();
  await afterIdleWork(page);
  await read(page);
  // Leaving reports the current section and sends the queue (sendBeacon on page hide).
  await page.goto('about:blank');
  let stored: { section: string; time_spent: number; path: string }[] = [];
  await waitFor(
    async () => {
      stored = await e2e.site.db('section_views').where({ session_id: sessionId }).orderBy('timestamp').select('section', 'time_spent', 'path');
      return expected.every((section) => stored.some((row) => row.section === section));
    },
    { timeoutMs: 45_000, what: `the times of ${expected.join(', ')} to be stored` },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; stored: ${JSON.stringify(stored)}`);
  });
  expect(consoleErrors).toEqual([]);
  await close();
  return stored;
}

describe('section time', () => {
  it.each([PHONE, DESKTOP])('is reported for each part of an article (%o)', async (viewport) => {
    const read = chapter(3);
    const rows = await visit(SWISS_GOLD.path, viewport, [read, 'guide-request'], async (page) => {
      const centre = (name: string) =>
        page.evaluate((section) => document.querySelector(`[data-track-section="${section}"]`)!.scrollIntoView({ block: 'center' }), name);
      await centre(read);
      await settled(page);
      // The visitor reads the chapter.
      await page.waitForTimeout(1500);
      await centre('guide-request');
      await settled(page);
    });
    // Before them, what the top of the page showed: the intro, or the first chapter where it fills more of the screen.
    const parts = ['intro', ...SWISS_GOLD.sections.map((section) => sectionName(section.heading)), 'guide-request', 'related', 'disclaimer'];
    for (const row of rows) expect(parts).toContain(row.section);
    expect(rows.map((row) => row.section).slice(-2)).toEqual([read, 'guide-request']);
    expect(rows.find((row) => row.section === read)!.time_spent).toBeGreaterThanOrEqual(1);
    expect(new Set(rows.map((row) => row.path))).toEqual(new Set([SWISS_GOLD.path]));
  }, 90_000);

  // On a phone a landing page's first part (the form) and an article's longest chapter are
  // taller than the screen; on a 1280×800 desktop no part of these pages is.
  it.each([
    { path: '/trading-old', section: 'hero' },
    { path: SWISS_GOLD.path, section: chapter(4) },
  ])('counts $section on $path while it fills half a phone screen, though less than half of it shows', async ({ path, section }) => {
    const rows = await visit(path, PHONE, [section, 'disclaimer'], async (page) => {
      const shown = await page.evaluate((name) => {
        const element = document.querySelector<HTMLElement>(`[data-track-section="${name}"]`)!;
        // Its last 55 % of a screen at the top of the screen; the next part below it.
        const bottom = element.getBoundingClientRect().bottom + window.scrollY;
        window.scrollTo(0, bottom - 0.55 * window.innerHeight);
        const { top, bottom: onScreen, height } = element.getBoundingClientRect();
        return { visible: Math.min(onScreen, window.innerHeight) - Math.max(top, 0), height, screen: window.innerHeight };
      }, section);
      expect(shown.visible).toBeGreaterThanOrEqual(shown.screen / 2);
      expect(shown.visible).toBeLessThan(shown.height / 2);
      await settled(page);
      await page.waitForTimeout(1500);
      await page.evaluate(() => document.querySelector('[data-track-section="disclaimer"]')!.scrollIntoView({ block: 'center' }));
      await settled(page);
    });
    expect(rows.find((row) => row.section === section)!.time_spent).toBeGreaterThanOrEqual(1);
  }, 90_000);
});
