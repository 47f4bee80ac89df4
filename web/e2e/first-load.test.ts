import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { validationMessages } from '@guida/shared/messages';
import { afterIdleWork } from './idle';
import { fillLeadForm, gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

/** The landing pages of the JavaScript budget (PRODUCT.md, bars; decision 046). */
const LANDING_PAGES = ['/', '/educazione-investimenti', '/trading-old'];
/** JavaScript a landing page may load on its first load, gzip-compressed (1 kB = 1,000 bytes). */
const FIRST_LOAD_BUDGET_GZIP_BYTES = 160_000;
/** Strings only uPlot's code contains: the admin's charts stay off the public pages. */
const ADMIN_ONLY = ['u-over'];
/** React DOM's production build: its fiber key, and the minified errors only production ships. */
const REACT_PRODUCTION = ['__reactFiber$', 'Minified React error #'];
/** Preact's mangled vnode children property and its name: no stand-in renderer ships. */
const PREACT = [/\.__k\b/, /\bpreact\b/i];
const ASSETS = join(import.meta.dirname, '..', 'build', 'client', 'assets');

const e2e = useSiteAndBrowser();

/** Resolves once the browser has been idle after hydration (the widgets and the cookie check have started). */
const idle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));

describe('the first load of a landing page', () => {
  it.each(LANDING_PAGES)('%s loads at most 160 kB of JavaScript (gzip), React\u2019s production build, no admin code', async (path) => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    const scripts: { url: string; encoding: Promise<string | undefined> }[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push({ url: request.url(), encoding: request.response().then((response) => response?.headers()['content-encoding']) });
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
    await idle(page);
    await page.waitForLoadState('networkidle');

    expect(scripts.length).toBeGreaterThan(3);
    let gzipBytes = 0;
    let allCode = '';
    for (const script of scripts) {
      const code = await (await fetch(script.url)).text();
      // Counted as the build precompresses it (web/tooling/precompress.ts), whatever encoding was sent.
      gzipBytes += gzipSync(code, { level: 9 }).length;
      allCode += code;
      // Files under 512 bytes are sent as they are.
      if (code.length >= 512) expect(await script.encoding, script.url).toBe('br');
      for (const marker of ADMIN_ONLY) expect(code, `${script.url} has ${marker}`).not.toContain(marker);
    }
    expect(gzipBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_GZIP_BYTES);
    for (const marker of REACT_PRODUCTION) expect(allCode, `the page's JavaScript lacks ${marker}`).toContain(marker);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('ships no built chunk with Preact in it', () => {
    const chunks = readdirSync(ASSETS).filter((file) => file.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(10);
    const withPreact = chunks.filter((file) => {
      const code = readFileSync(join(ASSETS, file), 'utf8');
      return PREACT.some((marker) => marker.test(code));
    });
    expect(withPreact).toEqual([]);
  });

  it('asks the API once for the live figures, however many widgets show them', async () => {
    const { page, close } = await openPage(e2e.browser);
    const liveStats: string[] = [];
    const isLiveStats = (url: string) => new URL(url).pathname === '/api/live-stats';
    page.on('request', (request) => {
      if (isLiveStats(request.url())) liveStats.push(request.url());
    });
    // The older page shows the figures in the offer box and in the social-proof widgets,
    // which mount once their code has loaded, after the first idle moment.
    const firstRequest = page.waitForRequest((request) => isLiveStats(request.url()));
    const widgetsLoaded = page.waitForResponse((response) => /\/assets\/live-widgets-[^/]+\.js$/.test(response.url()));
    await gotoInteractive(page, `${e2e.site.baseUrl}/trading-old`);
    await Promise.all([firstRequest, widgetsLoaded]);
    // Idle twice more: the widgets have rendered and subscribed; a second request would be out.
    await afterIdleWork(page);
    expect(liveStats).toEqual([`${e2e.site.baseUrl}/api/live-stats?path=%2Ftrading-old`]);
    await close();
  });
});

describe('hydration', () => {
  it.each(LANDING_PAGES)('%s adopts the prerendered header, form and footer, and is interactive when it says so', async (path) => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await page.addInitScript(() => {
      const state = window as unknown as { prerendered: Element[]; handledWhenInteractive?: boolean };
      // Hydration starts after the first frame, later than this event.
      document.addEventListener('DOMContentLoaded', () => {
        state.prerendered = ['header', 'form#richiedi-guida', 'footer'].map((selector) => document.querySelector(selector)!);
        // The moment the page says it is interactive, the form's script takes its submit
        // event (and keeps the browser from posting it).
        new MutationObserver(() => {
          if (document.documentElement.dataset.hydrated !== 'true' || state.handledWhenInteractive !== undefined) return;
          const form = document.querySelector<HTMLFormElement>('form#richiedi-guida')!;
          state.handledWhenInteractive = !form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }));
        }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
      });
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
    expect(await page.evaluate(() => (window as unknown as { handledWhenInteractive?: boolean }).handledWhenInteractive)).toBe(true);
    // A hydration mismatch would make React render the page anew, with new nodes.
    expect(
      await page.evaluate(() =>
        ['header', 'form#richiedi-guida', 'footer'].map(
          (selector, index) => document.querySelector(selector) === (window as unknown as { prerendered: Element[] }).prerendered[index],
        ),
      ),
    ).toEqual([true, true, true]);
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

describe('the guide form', () => {
  it('checks nothing before the first submit, then focuses the first invalid field and checks each field as it changes', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    const form = await fillLeadForm(page, { nome: 'A' });
    const message = (text: string) => form.getByText(text, { exact: true });
    await form.getByLabel('Cognome', { exact: true }).focus();
    expect(await message(validationMessages.nome).count()).toBe(0);

    await form.getByRole('button', { name: /guida/i }).click();
    await expect.poll(() => message(validationMessages.nome).count()).toBe(1);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('nome');
    const nome = form.getByLabel('Nome', { exact: true });
    expect(await nome.getAttribute('aria-invalid')).toBe('true');
    expect(await nome.getAttribute('aria-describedby')).toBe(await message(validationMessages.nome).getAttribute('id'));

    // Fixed, the field's message goes as the visitor types; the others stay until they change.
    await nome.fill('Anna');
    await expect.poll(() => message(validationMessages.nome).count()).toBe(0);
    expect(await nome.getAttribute('aria-invalid')).toBeNull();
    expect(await message(validationMessages.cognome).count()).toBe(1);
    await fillLeadForm(page, { email: 'anna@' });
    expect(await message(validationMessages.email).count()).toBe(1);
    expect(consoleErrors).toEqual([]);
    await close();
  });
});
