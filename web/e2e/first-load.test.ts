import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { validationMessages } from '@guida/shared/messages';
import { fillLeadForm, gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

/** The landing pages of the JavaScript budget (decision 030). */
const LANDING_PAGES = ['/', '/educazione-investimenti', '/trading-old'];
/** Compressed JavaScript a landing page may transfer on its first load, headers included (1 kB = 1,000 bytes). */
const JAVASCRIPT_BUDGET_BYTES = 100_000;
/** Strings only these libraries' production code contains: none of them belongs on a public page. */
const NOT_ON_PUBLIC_PAGES = [
  // react-dom: the pages run on Preact (decision 030)
  '__reactFiber$',
  // React Query: the admin area only
  'queryHash',
  // react-hook-form: replaced by web/app/lib/validated-form.ts
  'reValidateMode',
  // uPlot: the admin's charts only
  'u-over',
];


const e2e = useSiteAndBrowser();

/** Resolves once the browser has been idle after hydration (the widgets and the cookie check have started). */
const idle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));

describe('the first load of a landing page', () => {
  it.each(LANDING_PAGES)('%s transfers at most 100 kB of JavaScript, brotli-compressed, with none of the heavy libraries', async (path) => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    const scripts: { url: string; bytes: Promise<number>; encoding: Promise<string | undefined> }[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push({
        url: request.url(),
        bytes: request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize),
        encoding: request.response().then((response) => response?.headers()['content-encoding']),
      });
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
    await idle(page);
    await page.waitForLoadState('networkidle');

    expect(scripts.length).toBeGreaterThan(3);
    let total = 0;
    for (const script of scripts) {
      total += await script.bytes;
      const code = await (await fetch(script.url)).text();
      // Files under 512 bytes are sent as they are (web/tooling/precompress.ts).
      if (code.length >= 512) expect(await script.encoding, script.url).toBe('br');
      for (const marker of NOT_ON_PUBLIC_PAGES) expect(code, `${script.url} has ${marker}`).not.toContain(marker);
    }
    expect(total).toBeLessThanOrEqual(JAVASCRIPT_BUDGET_BYTES);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('asks the API once for the live figures, however many widgets show them', async () => {
    const { page, close } = await openPage(e2e.browser);
    const liveStats: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/live-stats') liveStats.push(request.url());
    });
    // The older page shows the figures in the offer box and in the social-proof widgets.
    await gotoInteractive(page, `${e2e.site.baseUrl}/trading-old`);
    await idle(page);
    await page.waitForLoadState('networkidle');
    expect(liveStats).toEqual([`${e2e.site.baseUrl}/api/live-stats?path=%2Ftrading-old`]);
    await close();
  });
});

describe('hydration in slices (decision 044)', () => {
  it.each(LANDING_PAGES)('%s: the header, the form and the footer keep their prerendered nodes and hydrate after the page', async (path) => {
    // The prerender marks each slice's range, which the browser keeps until the slice's turn.
    const html = await (await fetch(`${e2e.site.baseUrl}${path}`)).text();
    for (const start of ['<header', '<form id="richiedi-guida"', '<footer']) expect(html).toContain(`<!--$s-->${start}`);

    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await page.addInitScript(() => {
      const state = window as unknown as { prerendered: Element[]; handledWhenInteractive?: boolean };
      // Hydration starts after the first frame, later than this event.
      document.addEventListener('DOMContentLoaded', () => {
        state.prerendered = ['header', 'form#richiedi-guida', 'footer'].map((selector) => document.querySelector(selector)!);
        // The moment the page says it is interactive, every slice must be: the form's script
        // then takes its submit event (and keeps the browser from posting it).
        new MutationObserver(() => {
          if (document.documentElement.dataset.hydrated !== 'true' || state.handledWhenInteractive !== undefined) return;
          const form = document.querySelector<HTMLFormElement>('form#richiedi-guida')!;
          state.handledWhenInteractive = !form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }));
        }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
      });
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
    expect(await page.evaluate(() => (window as unknown as { handledWhenInteractive?: boolean }).handledWhenInteractive)).toBe(true);
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
