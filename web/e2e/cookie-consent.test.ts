import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cookieTexts as t } from '@guida/shared/messages';
import { openPage, startSite, useSiteAndBrowser } from './site-harness';


const e2e = useSiteAndBrowser();

const banner = (page: Page) => page.getByRole('region', { name: t.bannerTitle });
const storedId = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('guida-cookie-consent') ?? 'null') as { id: string } | null)?.id);
/** Resolves once this page load has the answer to a request for `path` (resource timing is per document). */
const fetched = (page: Page, path: string) =>
  page.waitForFunction(
    (prefix) => performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname.startsWith(prefix)),
    path,
    { timeout: 15_000 },
  );
/** Resolves once the page has run every task queued so far: the browser calls an idle callback only then. */
const idle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
const choiceOf = async (page: Page) => {
  const id = await storedId(page);
  return e2e.site.db('cookie_consents').where({ session_id: id }).orderBy('id', 'desc').first();
};

async function freshPage(options: Parameters<typeof openPage>[1] = {}) {
  const opened = await openPage(e2e.browser, options);
  await opened.page.goto(`${e2e.site.baseUrl}/`);
  await expect.poll(() => banner(opened.page).count()).toBe(1);
  return opened;
}

describe('cookie banner', () => {
  it('shows the spec texts, the privacy link in a new tab and the three buttons', async () => {
    const { page, close } = await freshPage();
    const region = banner(page);
    expect(await region.getByRole('heading').textContent()).toBe(t.bannerTitle);
    const link = region.getByRole('link', { name: t.privacyLink });
    expect(await link.getAttribute('href')).toBe('/privacy');
    expect(await link.getAttribute('target')).toBe('_blank');
    for (const name of [t.customize, t.essentialsOnly, t.acceptAll]) {
      expect(await region.getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    await close();
  });

  it.each([
    ['a phone', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }],
    ['a desktop', { viewport: { width: 1280, height: 800 } }],
  ] as const)('on %s, says what the × does and gives refusing the same weight as accepting (Garante 2021, EDPB)', async (_screen, options) => {
    const { page, close } = await freshPage(options);
    const region = banner(page);
    expect(await region.locator('p').first().innerText()).toContain(t.bannerCloseEffect);
    const looks = await Promise.all(
      [t.essentialsOnly, t.acceptAll].map((name) =>
        region.getByRole('button', { name, exact: true }).evaluate((button) => {
          const style = getComputedStyle(button);
          const box = button.getBoundingClientRect();
          return {
            width: Math.round(box.width),
            height: Math.round(box.height),
            ...Object.fromEntries(
              ['background-color', 'color', 'font-size', 'font-weight', 'border-top-width', 'border-top-color', 'padding-top', 'padding-left']
                .map((property) => [property, style.getPropertyValue(property)]),
            ),
          };
        }),
      ),
    );
    expect(looks[0]).toEqual(looks[1]);
    await close();
  });

  it('"Accetta Tutti" stores all four categories and hides the banner', async () => {
    const { page, close } = await freshPage();
    await banner(page).getByRole('button', { name: t.acceptAll }).click();
    await expect.poll(() => banner(page).count()).toBe(0);
    expect(await choiceOf(page)).toMatchObject({ essential: true, analytics: true, marketing: true, preferences: true });
    await close();
  });

  it('"Solo Essenziali" and the X both keep only the essential cookies', async () => {
    for (const button of [t.essentialsOnly, t.closeBanner]) {
      const { page, close } = await freshPage();
      await banner(page).getByRole('button', { name: button, exact: true }).click();
      await expect.poll(() => banner(page).count()).toBe(0);
      expect(await choiceOf(page)).toMatchObject({ essential: true, analytics: false, marketing: false, preferences: false });
      await close();
    }
  });

  it('"Personalizza" opens the panel; the saved toggles are stored', async () => {
    const { page, close, consoleErrors } = await freshPage();
    await banner(page).getByRole('button', { name: t.customize }).click();
    const panel = page.getByRole('dialog', { name: t.panelTitle });
    await expect.poll(() => panel.count()).toBe(1);
    const essential = panel.getByRole('switch', { name: new RegExp(t.categories.essential.title) });
    expect(await essential.isDisabled()).toBe(true);
    expect(await essential.getAttribute('aria-checked')).toBe('true');
    expect(await panel.getByText(t.required, { exact: true }).count()).toBe(1);
    for (const category of ['analytics', 'marketing', 'preferences'] as const) {
      const toggle = panel.getByRole('switch', { name: t.categories[category].title });
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
    }
    await panel.getByRole('switch', { name: t.categories.analytics.title }).click();
    await panel.getByRole('button', { name: t.save }).click();
    await expect.poll(() => panel.count()).toBe(0);
    expect(await banner(page).count()).toBe(0);
    // Opening the panel injects no style that the CSP would refuse.
    expect(consoleErrors).toEqual([]);
    expect(await choiceOf(page)).toMatchObject({ analytics: true, marketing: false, preferences: false });
    await close();
  });

  it('keeps the choice across reloads and new tabs, and the footer link reopens the panel', async () => {
    const { page, context, close } = await freshPage();
    await banner(page).getByRole('button', { name: t.essentialsOnly }).click();
    await expect.poll(() => banner(page).count()).toBe(0);

    const check = page.waitForResponse((response) => response.url().includes('/api/cookie-consent/'));
    await page.reload();
    expect((await check).status()).toBe(200);
    // On this page only the GA loader asks for the site settings, and it mounts once the choice is known.
    await fetched(page, '/api/site-settings');
    expect(await banner(page).count()).toBe(0);

    const second = await context.newPage();
    const secondCheck = second.waitForResponse((response) => response.url().includes('/api/cookie-consent/'));
    await second.goto(`${e2e.site.baseUrl}/trading-old`);
    expect((await secondCheck).status()).toBe(200);
    // Here the countdown asks for the site settings too: wait for the check's answer and the tasks it starts.
    await fetched(second, '/api/cookie-consent/');
    await idle(second);
    expect(await banner(second).count()).toBe(0);

    await page.getByRole('button', { name: t.reopen }).click();
    await expect.poll(() => page.getByRole('dialog', { name: t.panelTitle }).count()).toBe(1);
    await close();
  });

  it('stays open when saving fails, telling the visitor nothing', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of 500/ });
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await page.route('**/api/cookie-consent', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 500, body: 'errore' }) : route.continue(),
    );
    await page.goto(`${e2e.site.baseUrl}/`);
    await banner(page).getByRole('button', { name: t.acceptAll }).click();
    await expect.poll(() => logged.some((text) => text.startsWith('Error saving cookie consent:'))).toBe(true);
    expect(await banner(page).count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: /cookie/i }).count()).toBe(0);
    expect(consoleErrors.filter((text) => !text.startsWith('Error saving cookie consent:'))).toEqual([]);
    await close();
  });

  it('shows the banner when the server has no choice (404) and hides it on other errors', async () => {
    const { page, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of (404|503)/ });
    await page.goto(`${e2e.site.baseUrl}/`);
    await page.evaluate(() =>
      localStorage.setItem(
        'guida-cookie-consent',
        JSON.stringify({ id: 'unknown-visitor-0123456789', savedAt: Date.now(), flags: {} }),
      ),
    );
    await page.reload();
    await expect.poll(() => banner(page).count()).toBe(1);

    await page.route('**/api/cookie-consent/*', (route) => route.fulfill({ status: 503, body: '' }));
    const failedCheck = page.waitForResponse((response) => response.url().includes('/api/cookie-consent/'));
    await page.reload();
    expect((await failedCheck).status()).toBe(503);
    // The GA loader, mounted once the check has failed, asks for the site settings.
    await fetched(page, '/api/site-settings');
    expect(await banner(page).count()).toBe(0);
    await close();
  });

  it('is full width on a phone and 400 px wide from the small breakpoint', async () => {
    for (const [width, expected] of [
      [360, 360],
      [1024, 400],
    ] as const) {
      const { page, close } = await openPage(e2e.browser, { viewport: { width, height: 800 } });
      await page.goto(`${e2e.site.baseUrl}/`);
      await banner(page).getByRole('button', { name: t.customize }).click();
      const box = await page.getByRole('dialog', { name: t.panelTitle }).boundingBox();
      expect(Math.round(box!.width)).toBe(expected);
      await close();
    }
  });
});

describe('Google Analytics', () => {
  it('is absent when GA_MEASUREMENT_ID is unset, even after consent', async () => {
    const { page, close } = await freshPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await banner(page).getByRole('button', { name: t.acceptAll }).click();
    // The GA loader starts with the consent and needs the site settings: once they are in and
    // the page has run what they started, GA would be there.
    await fetched(page, '/api/site-settings');
    await idle(page);
    expect(requested.filter((url) => url.includes('googletagmanager'))).toEqual([]);
    expect(await page.locator('script#google-analytics').count()).toBe(0);
    await close();
  });

  it('loads only after analytics consent when configured', async () => {
    const gaSite = await startSite({ GA_MEASUREMENT_ID: 'G-TEST12345' });
    try {
      const { page, close } = await openPage(e2e.browser);
      const requested: string[] = [];
      // Nothing leaves this machine: the script request is answered locally.
      await page.route('https://www.googletagmanager.com/**', (route) => {
        requested.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
      });
      const response = await page.goto(`${gaSite.baseUrl}/`);
      expect(response!.headers()['content-security-policy']).toContain('https://www.googletagmanager.com');
      await expect.poll(() => banner(page).count()).toBe(1);
      // Nothing before the choice (checked again below, once the GA loader has run).
      await idle(page);
      expect(requested).toEqual([]);
      expect(await page.locator('script#google-analytics').count()).toBe(0);

      await banner(page).getByRole('button', { name: t.essentialsOnly }).click();
      // The GA loader has applied the refusal (it sets GA's opt-out flag): a script loaded
      // before the choice or with it would have been requested by now.
      await page.waitForFunction(() => (window as unknown as Record<string, unknown>)['ga-disable-G-TEST12345'] === true, undefined, {
        timeout: 15_000,
      });
      expect(requested).toEqual([]);
      expect(await page.locator('script#google-analytics').count()).toBe(0);

      await page.getByRole('button', { name: t.reopen }).click();
      const panel = page.getByRole('dialog', { name: t.panelTitle });
      await panel.getByRole('switch', { name: t.categories.analytics.title }).click();
      await panel.getByRole('button', { name: t.save }).click();
      await expect.poll(() => requested).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-TEST12345']);
      await close();
    } finally {
      await gaSite.stop();
    }
    // A site of its own (an API process started for it), like the other tests that start one.
  }, 60_000);
});
