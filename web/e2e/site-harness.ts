import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { marketingConsentText } from '@guida/shared/messages';
import { freePort } from '@guida/testing/free-port';
import { processEnv, startApi, startWorker } from '@guida/testing/processes';
import { createTestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';

/** Debian's Chromium, with the flags this machine needs (no sandbox, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * The bundled API serving the built site, on a private copy of the test database and a
 * private Redis prefix; with `withWorker`, the bundled worker too (analytics storage,
 * SMS to the outbox).
 */
export async function startSite(env: Record<string, string> = {}, { withWorker = false } = {}) {
  const database = await createTestDatabase();
  const prefix = uniquePrefix('web');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const siteEnv = {
    ...processEnv({ port, databaseUrl: database.url, redisKeyPrefix: prefix }),
    LOG_LEVEL: withWorker ? 'info' : 'warn',
    WEB_BUILD_DIR: 'web/build/client',
    LEAD_RATE_LIMIT_PER_IP: '100000',
    // Without a worker the API would open its no-worker alert (decision 058) after 3 minutes
    // and add it to the admin's banner mid-file; a day is longer than any test file.
    ...(withWorker ? {} : { WORKER_HEARTBEAT_ALERT_MINUTES: '1440' }),
    ...env,
  };
  const [api, worker] = await Promise.all([startApi(siteEnv), withWorker ? startWorker(siteEnv) : null]);
  return {
    baseUrl,
    db: database.db,
    databaseUrl: database.url,
    async stop() {
      await Promise.all([api.stop(), worker?.stop()]);
      await deleteRedisKeys(prefix);
      await database.drop();
    },
  };
}

export type Site = Awaited<ReturnType<typeof startSite>>;

/**
 * The site and a browser shared by the tests of one file: started before the first test,
 * stopped after the last. Read them as `e2e.site` and `e2e.browser` inside hooks and tests.
 */
export function useSiteAndBrowser(...siteArgs: Parameters<typeof startSite>) {
  const e2e = {} as { site: Site; browser: Browser };
  beforeAll(async () => {
    [e2e.site, e2e.browser] = await Promise.all([startSite(...siteArgs), launchChromium()]);
  });
  afterAll(async () => {
    await e2e.browser?.close();
    await e2e.site?.stop();
  });
  return e2e;
}

/** A browser shared by the tests of one file, for files that start a site per test. */
export function useBrowser() {
  const e2e = {} as { browser: Browser };
  beforeAll(async () => {
    e2e.browser = await launchChromium();
  });
  afterAll(async () => {
    await e2e.browser?.close();
  });
  return e2e;
}

/** Runs `run` against a site of its own configuration, stopped afterwards whatever happens. */
export async function withSite(env: Record<string, string>, run: (site: Site) => Promise<void>) {
  const site = await startSite(env);
  try {
    await run(site);
  } finally {
    await site.stop();
  }
}

/**
 * A page that fails the test on any console error or CSP violation (except those the
 * test expects) and records the requests the page made.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions & { allowConsoleErrors?: RegExp } = {}) {
  const { allowConsoleErrors, ...contextOptions } = options;
  const context = await browser.newContext({ locale: 'it-IT', ...contextOptions });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (allowConsoleErrors?.test(message.text())) return;
    consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return {
    page,
    context,
    consoleErrors,
    async close() {
      await context.close();
    },
  };
}

/** Opens `url` and waits until React has hydrated the page (the form handled in JS). */
export async function gotoInteractive(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated="true"]');
}

export async function fillLeadForm(page: Page, values: { nome?: string; cognome?: string; email?: string; telefono?: string }) {
  const form = page.locator('form#richiedi-guida');
  if (values.nome !== undefined) await form.getByLabel('Nome', { exact: true }).fill(values.nome);
  if (values.cognome !== undefined) await form.getByLabel('Cognome', { exact: true }).fill(values.cognome);
  if (values.email !== undefined) await form.getByLabel('Email', { exact: true }).fill(values.email);
  if (values.telefono !== undefined) await form.getByLabel('Cellulare', { exact: true }).fill(values.telefono);
  return form;
}

/** The form's required privacy checkbox. */
export const privacyCheckbox = (form: Locator) => form.getByRole('checkbox', { name: /informativa sulla privacy/i });

/** The form's optional marketing checkbox, separate from the privacy one. */
export const marketingCheckbox = (form: Locator) => form.getByRole('checkbox', { name: marketingConsentText, exact: true });
