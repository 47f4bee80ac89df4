import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cookieTexts, formMessages } from '@guida/shared/messages';
import { axeViolations } from './axe';
import { gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

/**
 * Every widget the site has, configured and showing at once (offer deadline, places cap,
 * other readers, a recent delivery, the cookie banner, /trading-old's risk warning): the
 * form, its consent, the submit button, the header button and every close button stay
 * uncovered and tappable, at two phone sizes and a desktop one, and after each widget is
 * closed in turn.
 */

const e2e = useSiteAndBrowser({
  LIVE_STATS_CACHE_SECONDS: '0',
  FREE_PLACES_TOTAL: '1000',
  OFFER_ENDS_AT: new Date(Date.now() + 3 * 3600_000).toISOString(),
});
beforeAll(async () => {
  // Other visitors reading the landing pages, and a guide sent and downloaded.
  for (const ip of ['203.0.113.1', '203.0.113.2']) {
    for (const path of ['/', '/trading-old']) {
      const response = await fetch(`${e2e.site.baseUrl}/api/analytics/page-view`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ sessionId: `lettore-${ip.replace(/\W/g, '-')}-000000000`, path }),
      });
      expect(response.status).toBe(202);
    }
  }
  const [lead] = await e2e.site.db('ebook_requests')
    .insert({ nome: 'Ada', cognome: 'Riva', email: 'ada@example.ch', telefono: '+41790000001', gdpr_consent: true, country: 'CH' })
    .returning('id');
  await e2e.site.db('sms_messages').insert({ lead_id: lead.id, status: 'delivered', sent_at: e2e.site.db.fn.now() });
  await e2e.site.db('guide_downloads').insert({ lead_id: lead.id });
});

const SCREENS: [string, BrowserContextOptions][] = [
  ['360×740', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }],
  ['390×844', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['1280×800', { viewport: { width: 1280, height: 800 } }],
];

const visitorBox = (page: Page) => page.getByRole('complementary', { name: 'Attività sul sito' });
const popup = (page: Page) => page.getByRole('complementary', { name: 'Attività recente' });
const countdown = (page: Page) => page.getByRole('complementary', { name: 'Offerta Limitata' });
const cookieBanner = (page: Page) => page.getByRole('region', { name: cookieTexts.bannerTitle });
const riskLine = (page: Page) => page.locator('[data-risk-line]');

type CoverCheck = {
  /** Elements to check as they are, without scrolling (a CSS selector); otherwise every target. */
  only?: string;
  /** Also check the targets fully on screen with the page at the top, as it opens. */
  atOpening?: boolean;
  /** Bring each target into view coming from these ends of the page and check it there. */
  from?: ('above' | 'below')[];
};

/**
 * Runs in the page, in one call per check (one per element would cost thousands of round
 * trips per screen): where each target is not the topmost element under the centre and the
 * corners of each of its boxes (a link has one per line), or is off screen, one line per
 * point. The targets are what the visitor reads or taps in the form, the header's button,
 * the cookie banner's controls, every close button and the footer's links (the page ends
 * above the overlays at the bottom). Each target is brought into view the way scrolling,
 * an anchor or the focus does (nearest edge), and the risk line is let settle first: it
 * shows exactly when the full warning is out of view, which the page learns from an
 * IntersectionObserver at the next frame; so is the room the page keeps under the fixed
 * overlays at the bottom.
 */
async function coverProblemsInPage({ only, atOpening = false, from = [] }: CoverCheck): Promise<string[]> {
  // Runs in the page: nothing from the test's module reaches here.
  const COOKIE_BANNER = '[aria-labelledby="cookie-banner-title"]';
  const ACTIVITY_POPUP = 'aside[aria-label="Attività recente"]';
  const nameOf = (element: HTMLElement) =>
    `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`;
  const targets = (): HTMLElement[] => {
    if (only) return [...document.querySelectorAll<HTMLElement>(only)];
    const form = document.getElementById('richiedi-guida')!;
    const inForm = [...form.querySelectorAll<HTMLElement>('h2, p, label, input, button, a')];
    const header = [...document.querySelectorAll<HTMLElement>('header a[href$="#richiedi-guida"]')];
    const banner = [...document.querySelectorAll<HTMLElement>(`${COOKIE_BANNER} :is(button, a)`)];
    const closers = [...document.querySelectorAll<HTMLElement>('button[aria-label^="Chiudi"]')];
    const footer = [...document.querySelectorAll<HTMLElement>('footer :is(a, button)')];
    return [...new Set([...header, ...inForm, ...banner, ...closers, ...footer])].filter(
      (element) => element.checkVisibility() && element.getBoundingClientRect().width > 0,
    );
  };
  const problemsOf = (element: HTMLElement) => {
    // Hit testing follows rounded corners: test corners inside the rounding.
    const radius = parseFloat(getComputedStyle(element).borderTopLeftRadius) || 0;
    return [...element.getClientRects()].flatMap((box) => {
      const inset = Math.min(Math.max(2, Math.min(radius, box.width / 2, box.height / 2) * 0.35), box.width / 4, box.height / 4);
      const points: [number, number][] = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + inset, box.top + inset],
        [box.right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset],
        [box.right - inset, box.bottom - inset],
      ];
      return points.flatMap(([x, y]) => {
        if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return [`(${x | 0}, ${y | 0}) off screen`];
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === element || element.contains(hit))) return [];
        const cover = hit?.closest('aside, section, [role="note"], header, form') ?? hit;
        return [`(${x | 0}, ${y | 0}) under ${cover?.tagName.toLowerCase()} "${cover?.getAttribute('aria-label') ?? cover?.textContent?.trim().slice(0, 30)}"`];
      });
    });
  };
  const riskLineSettled = () => {
    const full = document.querySelector('[role="note"]:not([data-risk-line])');
    const line = document.querySelector<HTMLElement>('[data-risk-line]');
    return !full || !line || line.hidden === full.getBoundingClientRect().bottom > 0;
  };
  // The page keeps room under the fixed overlays at the bottom (the cookie banner, the popup
  // on phones) once their resize observer reports them, a frame after they show: a check
  // that starts before would scroll fields under an overlay no visitor sees there.
  const overlaysRoomSettled = () => {
    const overlays = document.querySelectorAll<HTMLElement>(`${COOKIE_BANNER}, ${ACTIVITY_POPUP}`);
    const fixed = [...overlays].filter((overlay) => getComputedStyle(overlay).position === 'fixed');
    const room = fixed.reduce((sum, overlay) => sum + overlay.offsetHeight, 0);
    return (parseFloat(document.body.style.paddingBottom) || 0) === room;
  };
  const settled = () => riskLineSettled() && overlaysRoomSettled();
  // The test's fake clock holds timers and animation frames and stops every clock a page
  // script can read but the document's timeline, which follows the frames: wait on what it
  // leaves alone, the next frame's intersection check and tasks (for React to commit), and
  // bound the wait by the timeline, and by a count of turns should no frame come at all.
  const nextFrame = () =>
    new Promise<void>((resolve) => {
      const observer = new IntersectionObserver(() => {
        observer.disconnect();
        resolve();
      });
      observer.observe(document.body);
    });
  const nextTask = () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });
  const timeline = () => Number(document.timeline.currentTime ?? 0);
  const settle = async () => {
    const started = timeline();
    let frame: Promise<void> | undefined;
    for (let turn = 0; !settled(); turn += 1) {
      if (timeline() - started > 5_000 || turn > 200_000) {
        throw new Error(`${riskLineSettled() ? 'the room under the overlays' : 'the risk line'} did not follow within 5 s`);
      }
      // The next frame or a task, whichever comes first: a page that never settles may
      // produce no frame at all, and must fail all the same.
      frame ??= nextFrame().then(() => {
        frame = undefined;
      });
      await Promise.race([frame, nextTask()]);
    }
  };

  const problems: string[] = [];
  const checked = targets();
  if (only) {
    if (checked.length === 0) return [`nothing matches ${only}`];
    for (const element of checked) problems.push(...problemsOf(element));
    return problems;
  }
  const toTop = async () => {
    window.scrollTo({ top: 0, behavior: 'instant' });
    await settle();
  };
  await toTop();
  if (atOpening) {
    for (const element of checked) {
      const box = element.getBoundingClientRect();
      if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth) continue;
      problems.push(...problemsOf(element).map((problem) => `${nameOf(element)} as the page opens: ${problem}`));
    }
  }
  for (const start of from) {
    for (const element of checked) {
      window.scrollTo({ top: start === 'above' ? 0 : document.documentElement.scrollHeight, behavior: 'instant' });
      element.scrollIntoView({ block: 'nearest', behavior: 'instant' });
      await settle();
      problems.push(...problemsOf(element).map((problem) => `${nameOf(element)} reached from ${start}: ${problem}`));
    }
  }
  await toTop();
  return problems;
}

/** Where the elements `only` selects are covered or off screen, as they are now. */
const coverageProblems = (page: Page, only: string) => page.evaluate(coverProblemsInPage, { only });

/**
 * Every target is uncovered, reached from above and from below; on a desktop screen the
 * form is in the first screen: what is fully visible there is checked as the page opens too.
 */
async function expectNothingCovered(page: Page, state: string, { atOpening }: { atOpening: boolean }) {
  const check: CoverCheck = { atOpening, from: ['above', 'below'] };
  const problems = await page.evaluate(coverProblemsInPage, check);
  expect([state, problems]).toEqual([state, []]);
}

/** Taps (or clicks) a close button: Playwright refuses when something else would get the tap. */
async function closeWith(page: Page, button: Locator, touch: boolean) {
  await button.scrollIntoViewIfNeeded();
  if (touch) await button.tap({ timeout: 5_000 });
  else await button.click({ timeout: 5_000 });
}

describe('nothing covers the form', () => {
  it.each(SCREENS)('on the landing pages at %s, with every widget and after closing each', async (screen, options) => {
    const touch = options.hasTouch === true;
    for (const path of ['/trading-old', '/']) {
      const older = path === '/trading-old';
      const { page, consoleErrors, close } = await openPage(e2e.browser, options);
      // The page runs on a clock the test moves: the popup first shows 10 s after the page
      // is idle, then stays for as long as the clock is paused.
      await page.clock.install();
      await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
      await cookieBanner(page).waitFor();
      await visitorBox(page).waitFor();
      if (older) await countdown(page).waitFor();
      await page.clock.pauseAt(await page.evaluate(() => Date.now() + 11_000));
      await popup(page).waitFor();
      const state = `${path} at ${screen}`;

      await expectNothingCovered(page, `${state}, every widget`, { atOpening: !touch });

      if (older) {
        // The scroll button lands the form below the risk line, Nome focused and visible.
        await page.getByRole('button', { name: 'Voglio la guida gratuita' }).click();
        const nome = page.locator('form#richiedi-guida').getByLabel('Nome', { exact: true });
        await expect.poll(() => nome.evaluate((input) => input === document.activeElement)).toBe(true);
        await expect.poll(() => riskLine(page).isVisible()).toBe(true);
        await expect
          .poll(() =>
            page.evaluate(() => {
              const line = document.querySelector('[data-risk-line]')!.getBoundingClientRect();
              const form = document.getElementById('richiedi-guida')!.getBoundingClientRect();
              return form.top >= line.bottom && form.top < window.innerHeight / 2;
            }),
          )
          .toBe(true);
        expect(await coverageProblems(page, 'form#richiedi-guida input[name="nome"]')).toEqual([]);
        // On phones the line is thin: at most two short lines of text.
        expect((await riskLine(page).boundingBox())!.height).toBeLessThanOrEqual(touch ? 48 : 40);
        expect(await coverageProblems(page, '[data-risk-line] button[aria-label="Chiudi l’avviso di rischio"]')).toEqual([]);
      }

      await closeWith(page, popup(page).getByRole('button', { name: 'Chiudi le notifiche di attività' }), touch);
      expect(await popup(page).count()).toBe(0);
      await expectNothingCovered(page, `${state}, popup closed`, { atOpening: false });

      if (older) {
        await closeWith(page, countdown(page).getByRole('button', { name: 'Chiudi il riquadro dell’offerta' }), touch);
        expect(await countdown(page).count()).toBe(0);
        await expectNothingCovered(page, `${state}, countdown closed`, { atOpening: false });
      }

      await closeWith(page, visitorBox(page).getByRole('button', { name: 'Chiudi le attività sul sito' }), touch);
      expect(await visitorBox(page).count()).toBe(0);
      await expectNothingCovered(page, `${state}, visitor box closed`, { atOpening: false });

      if (older) {
        // The risk line's own ×, once the full warning is out of view, closes both.
        await page.locator('form#richiedi-guida').scrollIntoViewIfNeeded();
        await expect.poll(() => riskLine(page).isVisible()).toBe(true);
        await closeWith(page, riskLine(page).getByRole('button', { name: 'Chiudi l’avviso di rischio' }), touch);
        expect(await page.getByRole('note').count()).toBe(0);
        await expectNothingCovered(page, `${state}, risk warning closed`, { atOpening: false });
      }

      // Saving the choice is a request whose answer React renders: the clock runs again.
      await page.clock.resume();
      await closeWith(page, cookieBanner(page).getByRole('button', { name: cookieTexts.essentialsOnly }), touch);
      await expect.poll(() => cookieBanner(page).count()).toBe(0);
      await expectNothingCovered(page, `${state}, cookie banner closed`, { atOpening: false });

      if (!touch && !older) {
        // A toast (here: the consent is missing) keeps to the left half of a wide screen.
        await page.locator('form#richiedi-guida').getByRole('button', { name: /guida/i }).click();
        // The toast itself, not Radix's announcement of it (a live region removed after 1 s).
        const toast = page.getByRole('region', { name: /^Notifiche/ }).getByRole('listitem').filter({ hasText: formMessages.consentRequiredTitle });
        await toast.waitFor();
        // It stays while the checks run: the clock stops within its 5 s, far enough ahead
        // that the call is not in the past on a busy machine.
        await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
        await expectNothingCovered(page, `${state}, consent toast`, { atOpening: true });
        expect(await toast.count()).toBe(1);
      }
      expect(consoleErrors).toEqual([]);
      await close();
    }
  }, 180_000);

  it('keeps every widget accessible (axe, all of them showing, the phone help open)', async () => {
    const { page, close } = await openPage(e2e.browser, { ...SCREENS[0]![1], bypassCSP: true });
    await page.clock.install();
    await gotoInteractive(page, `${e2e.site.baseUrl}/trading-old`);
    await cookieBanner(page).waitFor();
    // The live figures are in (the popup's cycle has started) before the clock jumps.
    await visitorBox(page).waitFor();
    await countdown(page).waitFor();
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 11_000));
    await popup(page).waitFor();
    await page.getByRole('button', { name: 'Perché il cellulare?' }).tap();
    await page.locator('form#richiedi-guida').scrollIntoViewIfNeeded();
    await expect.poll(() => riskLine(page).isVisible()).toBe(true);
    // axe waits on timers: the clock moves in small steps while it runs, far less than the
    // popup's 5 s on screen.
    const violations = axeViolations(page);
    let done = false;
    void violations.finally(() => (done = true));
    for (let step = 0; step < 2000 && !done; step += 1) await page.clock.runFor(1);
    expect(await violations).toEqual([]);
    expect(await popup(page).count()).toBe(1);
    await close();
    // Four widgets, a paused clock and axe on a phone page: 8 s on a quiet machine, more
    // than the default 30 s when two suites share its two cores.
  }, 90_000);
});
