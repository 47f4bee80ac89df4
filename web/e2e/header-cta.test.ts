import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SITE_PAGE_PATHS, THANK_YOU_PATHS } from '../app/page-paths';
import { gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

const e2e = useSiteAndBrowser();

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const WITHOUT_FORM = ['/privacy', '/gdpr', ...THANK_YOU_PATHS, '/welcome', '/pagina-inesistente'];

/** Whether the guide form's first field is on screen and the topmost element where it is. */
const nomeOnScreen = (page: Page) =>
  page.locator('form#richiedi-guida').getByLabel('Nome', { exact: true }).evaluate((input) => {
    const box = input.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) return false;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit === input;
  });

describe('the header’s "Richiedi la guida"', () => {
  it.concurrent.for([...SITE_PAGE_PATHS, '/pagina-inesistente'])('leads to a guide form from %s', async (path, { expect }) => {
    // The unknown path is answered with its page and HTTP 404, which Chromium logs.
    const { page, consoleErrors, close } = await openPage(e2e.browser, { ...PHONE, allowConsoleErrors: /status of 404/ });
    await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
    const formOnPage = (await page.locator('form#richiedi-guida').count()) === 1;
    expect(formOnPage).toBe(!WITHOUT_FORM.includes(path));
    await page.getByRole('banner').getByRole('link', { name: 'Richiedi la guida' }).tap();
    await expect.poll(() => new URL(page.url()).hash).toBe('#richiedi-guida');
    expect(new URL(page.url()).pathname).toBe(formOnPage ? path : '/');
    await expect.poll(() => nomeOnScreen(page)).toBe(true);
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

describe('the page of an invalid guide link', () => {
  it('has the site’s header and colours', async () => {
    // The page is answered with HTTP 404, which Chromium logs.
    const { page, consoleErrors, close } = await openPage(e2e.browser, { ...PHONE, allowConsoleErrors: /status of 404/ });
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    const siteColours = {
      link: await page.locator('form#richiedi-guida a[href="/privacy"]').evaluate((link) => getComputedStyle(link).color),
      cta: await page.getByRole('banner').getByRole('link', { name: 'Richiedi la guida' }).evaluate((link) => getComputedStyle(link).backgroundColor),
    };

    const response = await page.goto(`${e2e.site.baseUrl}/g/questo-link-non-esiste-0123456789`);
    expect(response!.status()).toBe(404);
    const header = page.getByRole('banner');
    expect(await header.getByRole('link', { name: 'GuidaFinanza' }).getAttribute('href')).toBe('/');
    const cta = header.getByRole('link', { name: 'Richiedi la guida' });
    expect(await cta.evaluate((link) => getComputedStyle(link).backgroundColor)).toBe(siteColours.cta);
    const home = page.getByRole('main').getByRole('link');
    expect(await home.evaluate((link) => getComputedStyle(link).color)).toBe(siteColours.link);
    // The inline stylesheet is allowed by the page's CSP (a refused one is a console error).
    expect(consoleErrors).toEqual([]);

    await cta.tap();
    await page.waitForURL(`${e2e.site.baseUrl}/#richiedi-guida`);
    await expect.poll(() => nomeOnScreen(page)).toBe(true);
    await close();
  });
});
