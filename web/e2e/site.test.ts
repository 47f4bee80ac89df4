import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { experimentOfPath } from '@guida/shared/experiments';
import { providerIdentityLines, providerIdentityOf } from '@guida/shared/provider-identity';
import {
  ADMIN_PATHS,
  FINANCE_LANDING_PATHS,
  INDEXABLE_PATHS,
  INVESTMENT_LANDING_PATHS,
  SITE_PAGE_PATHS,
  THANK_YOU_PATHS,
} from '../app/page-paths';
import { gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

const PUBLIC_PATHS = [...SITE_PAGE_PATHS];
const BUILD = path.resolve(import.meta.dirname, '../build/client');
/** Strings only the development builds of our libraries contain (their warnings, devtools hooks). */
const DEVELOPMENT_ONLY = [
  // react-dom and react, should the site ever be built with them again (decision 030)
  'Download the React DevTools',
  'Each child in a list should have a unique "key" prop',
  // React Query (the admin area)
  'Switching provider after calls to previous provider',
  // Radix (the cookie panel, the toaster, the admin area)
  ' is changing from ',
];


const e2e = useSiteAndBrowser();

describe('every public route', () => {
  it('is prerendered HTML with its title, description, canonical URL and Open Graph tags', async () => {
    for (const page of PUBLIC_PATHS) {
      const response = await fetch(`${e2e.site.baseUrl}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      // A page under a hero experiment differs per visitor (decision 041): no shared cache keeps it.
      expect(response.headers.get('cache-control'), page).toBe(experimentOfPath(page) ? 'private, no-cache' : 'no-cache');
      const html = await response.text();
      expect(html, page).toContain('<html lang="it">');
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      expect(title && title.length >= 10 && title.length <= 60, `${page} title "${title}"`).toBe(true);
      expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
      expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(html).toMatch(/<h1[^>]*>[^<]+/);
      // Every part of the page in place: none left hidden for an inline script to move in
      // (React's out-of-order boundaries), which a visitor without JavaScript never sees.
      expect(html, page).not.toContain('<div hidden id="S:');
      expect(html, page).not.toContain('<template id="B:');
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      expect(canonical, page).toMatch(/^http:\/\/localhost:3000\//);
    }
  });

  it('shares one canonical URL per landing page variant', async () => {
    const canonicalOf = async (page: string) =>
      /<link rel="canonical" href="([^"]+)"/.exec(await (await fetch(`${e2e.site.baseUrl}${page}`)).text())?.[1];
    for (const variant of FINANCE_LANDING_PATHS) expect(await canonicalOf(variant)).toBe('http://localhost:3000/');
    for (const variant of INVESTMENT_LANDING_PATHS) {
      expect(await canonicalOf(variant)).toBe('http://localhost:3000/educazione-investimenti');
    }
  });

  it('keeps thank-you pages out of search results', async () => {
    for (const page of [...THANK_YOU_PATHS, '/welcome']) {
      expect(await (await fetch(`${e2e.site.baseUrl}${page}`)).text()).toContain('<meta name="robots" content="noindex, follow"/>');
    }
  });

  it('loads without console errors or CSP violations', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    for (const url of ['/', '/trading-old', '/oro-svizzera', '/trading-milano', '/privacy', '/grazie-italia']) {
      await page.goto(`${e2e.site.baseUrl}${url}`);
      await page.waitForLoadState('networkidle');
    }
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

describe('security headers', () => {
  it('allow inline scripts only by hash and forbid framing', async () => {
    const response = await fetch(`${e2e.site.baseUrl}/`);
    const csp = response.headers.get('content-security-policy')!;
    const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src '))!;
    expect(scriptSrc).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+$/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the 404 page', () => {
  it('answers unknown paths with HTTP 404 and the "Page Not Found" page', async () => {
    const response = await fetch(`${e2e.site.baseUrl}/questa-pagina-non-esiste`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<title>Page Not Found</title>');

    // The browser logs the document's own 404 status; nothing else may fail.
    const { page, consoleErrors, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of 404/ });
    await page.goto(`${e2e.site.baseUrl}/questa-pagina-non-esiste`);
    expect(await page.title()).toBe('Page Not Found');
    expect(await page.locator('h1').textContent()).toBe('Page Not Found');
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

describe('navigation', () => {
  it('moves between pages without reloading and shows a spinner while a page loads', async () => {
    const { page, close } = await openPage(e2e.browser);
    // Network idle is not enough: on a loaded machine hydration can end later, and a click on
    // the static link reloads the whole page (no spinner: a clean-clone run's failure).
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    // The privacy page's data is held back until the spinner has been seen.
    let release = () => {};
    const spinnerSeen = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/privacy.data', async (route) => {
      await spinnerSeen;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Privacy Policy', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Caricamento in corso' }).count()).toBe(1);
    release();
    await page.waitForURL(`${e2e.site.baseUrl}/privacy`);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/dati personali|privacy/i);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await close();
  });

  it('serves the admin routes as a client-side app', async () => {
    for (const adminPath of ADMIN_PATHS) {
      const response = await fetch(`${e2e.site.baseUrl}${adminPath}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    }
    const { page, close } = await openPage(e2e.browser);
    await page.goto(`${e2e.site.baseUrl}/admin/login`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Accesso amministratori');
    await close();
  });
});

describe('the texts of a page', () => {
  const staticTexts = ['Avvertenze sui rischi', 'Materiale esclusivamente educativo', 'nessuna promessa di guadagno'];

  it('stay through hydration and are rendered again after a client-side navigation', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/trading-old`);
    await page.waitForLoadState('networkidle');
    const firstLoad = await page.locator('body').innerText();
    for (const text of [...staticTexts, 'Cosa trovi nella guida', 'La guida è gratuita, senza carta di credito']) {
      expect(firstLoad).toContain(text);
    }
    expect(await page.locator('#vantaggi').textContent()).toBeTruthy();

    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole('link', { name: 'Privacy Policy', exact: true }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/privacy`);
    await page.getByRole('link', { name: /GuidaFinanza/ }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/`);
    await expect.poll(() => page.locator('#vantaggi').textContent()).toBeTruthy();
    const afterNavigation = await page.locator('body').innerText();
    for (const text of staticTexts) expect(afterNavigation).toContain(text);
    expect(await page.locator('h1').textContent()).toBeTruthy();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

/** Every prerendered page of the build (index.html files, the 404 page included). */
const prerenderedPages = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? prerenderedPages(path.join(dir, entry.name)) : entry.name === 'index.html' ? [path.join(dir, entry.name)] : [],
  );

describe('who provides the service', () => {
  // What the build was given (npm test gives example values), as every footer must show it.
  const lines = providerIdentityLines(providerIdentityOf(process.env));

  it('is named in the footer of every prerendered page', () => {
    const pages = prerenderedPages(BUILD);
    expect(pages.length).toBeGreaterThan(30);
    for (const file of pages) {
      const html = readFileSync(file, 'utf8');
      for (const line of lines) expect(html, file).toContain(line.replaceAll('&', '&amp;'));
    }
  });

  it.each([
    ['a phone', { viewport: { width: 360, height: 740 }, isMobile: true }],
    ['a desktop', { viewport: { width: 1280, height: 800 } }],
  ] as const)('is readable at the end of a landing page on %s', async (_screen, options) => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, options);
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    const footer = page.getByRole('contentinfo');
    for (const line of lines) {
      await footer.getByText(line, { exact: true }).scrollIntoViewIfNeeded();
      expect(await footer.getByText(line, { exact: true }).isVisible()).toBe(true);
    }
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

describe('the build', () => {
  it('loads the page code only after the first paint (no preload competing with the stylesheet)', async () => {
    const html = await (await fetch(`${e2e.site.baseUrl}/`)).text();
    expect(html).not.toContain('rel="modulepreload"');
    const { page, close } = await openPage(e2e.browser, { viewport: { width: 360, height: 740 } });
    try {
      await gotoInteractive(page, `${e2e.site.baseUrl}/`);
      const timing = await page.evaluate(() => ({
        firstPaint: Math.min(...performance.getEntriesByType('paint').map((entry) => entry.startTime)),
        requests: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/') && entry.name.endsWith('.js'))
          .map((entry) => ({ name: entry.name, startTime: entry.startTime })),
      }));
      expect(timing.requests.length).toBeGreaterThanOrEqual(5);
      for (const request of timing.requests) expect(request.startTime, request.name).toBeGreaterThan(timing.firstPaint);
    } finally {
      await close();
    }
  });

  it('still hydrates in a browser without Paint Timing, or one that never reports the paint', async () => {
    const withoutPaintTiming = 'delete window.PerformanceObserver;';
    const paintNeverReported = 'PerformanceObserver.prototype.observe = function () {};';
    for (const script of [withoutPaintTiming, paintNeverReported]) {
      const { page, consoleErrors, close } = await openPage(e2e.browser);
      try {
        await page.addInitScript(script);
        await gotoInteractive(page, `${e2e.site.baseUrl}/`);
        expect(consoleErrors, script).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it('inlines its icon: no request for it competes with the first paint', async () => {
    const html = await (await fetch(`${e2e.site.baseUrl}/`)).text();
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,%3Csvg[^"]+" type="image\/svg\+xml"\/>/);
  });

  it('keeps zod out of the first load (validation code comes after the page is interactive)', async () => {
    const html = await (await fetch(`${e2e.site.baseUrl}/`)).text();
    const chunks = JSON.parse(/const href of (\[[^\]]+\])/.exec(html)![1]!) as string[];
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      const code = await (await fetch(`${e2e.site.baseUrl}${chunk}`)).text();
      expect(code, chunk).not.toMatch(/\$ZodType|ZodError/);
    }
  });

  it('ships production code only, whatever NODE_ENV the build ran with', () => {
    const chunks = readdirSync(path.join(BUILD, 'assets')).filter((file) => file.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      const code = readFileSync(path.join(BUILD, 'assets', chunk), 'utf8');
      for (const marker of DEVELOPMENT_ONLY) expect(code, `${chunk} contains development code`).not.toContain(marker);
    }
  });

  it('keeps admin code out of every public page', () => {
    const adminChunks = readdirSync(path.join(BUILD, 'assets')).filter((file) => /^admin-/.test(file));
    expect(adminChunks.length).toBeGreaterThan(0);
    for (const file of prerenderedPages(BUILD)) {
      const html = readFileSync(file, 'utf8');
      for (const chunk of adminChunks) expect(html, file).not.toContain(chunk);
    }
    const publicChunks = readdirSync(path.join(BUILD, 'assets')).filter((file) => file.endsWith('.js') && !/^admin-/.test(file));
    for (const chunk of publicChunks) {
      expect(readFileSync(path.join(BUILD, 'assets', chunk), 'utf8'), chunk).not.toContain('Accesso amministratori');
    }
  });

  it('serves hashed assets for a year and precompressed', async () => {
    const html = await (await fetch(`${e2e.site.baseUrl}/`)).text();
    const assets = [...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of new Set(assets)) {
      const url = `${e2e.site.baseUrl}${asset}`;
      const plain = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
      const size = (await plain.arrayBuffer()).byteLength;
      const response = await fetch(url, { headers: { 'Accept-Encoding': 'br' } });
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      // Files under 512 bytes are not worth compressing (web/tooling/precompress.ts).
      expect(response.headers.get('content-encoding'), asset).toBe(size < 512 ? null : 'br');
    }
  });

  it('has V8 compile the libraries of hydration eagerly (compile hint on the first line)', async () => {
    const html = await (await fetch(`${e2e.site.baseUrl}/`)).text();
    const vendor = /"(\/assets\/react-vendor-[^"]+\.js)"/.exec(html)?.[1];
    expect(vendor).toBeDefined();
    const code = await (await fetch(`${e2e.site.baseUrl}${vendor}`)).text();
    expect(code.split('\n', 1)[0]).toBe('//# allFunctionsCalledOnLoad');
  });

  it('publishes robots.txt and a sitemap of the indexable pages', async () => {
    const robots = await (await fetch(`${e2e.site.baseUrl}/robots.txt`)).text();
    expect(robots).toContain('Disallow: /admin');
    expect(robots).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    const sitemap = await (await fetch(`${e2e.site.baseUrl}/sitemap.xml`)).text();
    for (const page of INDEXABLE_PATHS) expect(sitemap).toContain(`<loc>http://localhost:3000${page}</loc>`);
    expect(sitemap).not.toContain('grazie');
  });
});
