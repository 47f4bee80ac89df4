import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cookieTexts } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { afterIdleWork } from './idle';
import { fillLeadForm, openPage, privacyCheckbox, useSiteAndBrowser } from './site-harness';

const USERNAME = 'campagne';
const PASSWORD = 'Corretta!Cavallo42';
/** The login page asks for a session first: 401 while signed out. */
const SIGNED_OUT = /status of 401/;
const LONG_URL = `https://www.example.com/${'percorso-molto-lungo/'.repeat(24)}`.slice(0, 500);

// The worker runs too: without CRM_WEBHOOK_URL it marks the CRM deliveries skipped.
const e2e = useSiteAndBrowser({ TWILIO_FROM: 'MiaGuida', GUIDE_LINK_TTL_DAYS: '7', GA_MEASUREMENT_ID: 'G-TEST12345' }, { withWorker: true });
beforeAll(() => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
});

/** Opens `path` as a visit coming from `referrer` and waits for the interactive page. */
async function land(page: Page, path: string, referrer: string) {
  await page.goto(`${e2e.site.baseUrl}${path}`, { referer: referrer });
  await page.waitForSelector('html[data-hydrated="true"]');
}

async function signIn(page: Page) {
  await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
  // The overview is the first screen; the leads are one tab away.
  await page.getByRole('tab', { name: 'Lead', exact: true }).click();
}

const leadsTable = (page: Page) => page.getByRole('region', { name: 'Tabella dei lead' });
const romeTime = (date: Date) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(date);

describe('campaign attribution, from the ad to the CSV', () => {
  it('keeps the first and last touch of a visit, shows them to the operator, filters by them and exports them', async () => {
    const { page, context, close, consoleErrors } = await openPage(e2e.browser, {
      acceptDownloads: true,
      viewport: { width: 1280, height: 800 },
      allowConsoleErrors: SIGNED_OUT,
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.route('https://www.googletagmanager.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );

    // First landing: a Meta ad. The visitor accepts every cookie (Google Analytics included).
    await land(page, '/educazione-investimenti?utm_source=facebook&utm_medium=paid-social&fbclid=IwAR0-prima', 'https://l.facebook.com/');
    await page.getByRole('region', { name: cookieTexts.bannerTitle }).getByRole('button', { name: cookieTexts.acceptAll }).click();
    await expect.poll(() => requested.filter((url) => url.includes('googletagmanager')).length).toBe(1);
    // Then, in the same tab, a Google ad with a campaign: the last touch. Its click id is sent
    // once the page has read the visitor's choice (decision 049).
    const choiceRead = page.waitForResponse((response) => response.url().includes('/api/cookie-consent/'));
    await land(
      page,
      '/?utm_source=google&utm_medium=cpc&utm_campaign=autunno&utm_term=guida%20finanza&utm_content=annuncio-b&gclid=Cj0KCQ-ultimo',
      'https://www.google.com/',
    );
    await choiceRead;
    const form = await fillLeadForm(page, { nome: 'Elena', cognome: 'Marchetti', email: 'elena.marchetti@example.it', telefono: '347 700 1234' });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);

    // The thank-you page names the sender and link lifetime the worker is configured with.
    const main = page.locator('main');
    await expect.poll(() => main.textContent()).toContain('dal mittente "MiaGuida"');
    expect(await main.textContent()).toContain('valido per 7 giorni');
    expect(await main.textContent()).not.toMatch(/GuidaFin|30 giorni/);
    // Kept in the tab's session storage only: no cookie carries the campaign.
    expect(JSON.stringify(await context.cookies())).not.toMatch(/Cj0KCQ|IwAR0|utm_/);

    const lead = await e2e.site.db('ebook_requests').where({ email: 'elena.marchetti@example.it' }).first();
    expect(lead).toMatchObject({
      landing_path: '/',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'autunno',
      utm_term: 'guida finanza',
      utm_content: 'annuncio-b',
      gclid: 'Cj0KCQ-ultimo',
      fbclid: null,
      referrer_host: 'www.google.com',
      first_utm_source: 'facebook',
      first_utm_medium: 'paid-social',
      first_fbclid: 'IwAR0-prima',
      first_gclid: null,
      first_referrer_host: 'l.facebook.com',
      // Marketing cookies accepted: the click ids are kept, and the ad consent granted (decision 049).
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    });

    // The funnel's landing carries the campaign of the visit too (never a click id).
    const funnelLanding = () =>
      e2e.site.db('conversion_funnel').where({ step: 'landing', landing_path: '/' }).whereRaw("metadata->>'utm_term' = ?", ['guida finanza']).first();
    await expect.poll(funnelLanding, { timeout: 20_000 }).toBeTruthy();
    expect((await funnelLanding()).metadata).toMatchObject({ utm_source: 'google', utm_campaign: 'autunno', utm_content: 'annuncio-b' });
    expect(JSON.stringify((await funnelLanding()).metadata)).not.toContain('Cj0KCQ');

    // The admin never loads Google Analytics, whatever the visitor chose in this browser:
    // once the stored choice is checked and the network is quiet, nothing was asked for.
    const beforeAdmin = requested.length;
    const choiceChecked = page.waitForResponse((response) => response.url().includes('/api/cookie-consent/'));
    await signIn(page);
    await choiceChecked;
    await expect.poll(() => leadsTable(page).getByRole('row').count()).toBe(2);
    await afterIdleWork(page);
    await page.waitForLoadState('networkidle');
    expect(requested.slice(beforeAdmin).filter((url) => url.includes('googletagmanager'))).toEqual([]);
    expect(await page.locator('script#google-analytics').count()).toBe(0);

    // No CRM is configured: a red warning on every tab.
    const warning = page.getByRole('alert', { name: 'CRM non configurato' });
    expect(await warning.textContent()).toContain('CRM_WEBHOOK_URL');

    const row = leadsTable(page).getByRole('row', { name: /Elena Marchetti/ });
    await expect.poll(() => row.textContent()).toContain('Saltato');
    const rowText = await row.textContent();
    expect(rowText).toContain('google / cpc');
    expect(rowText).toContain('autunno');
    expect(rowText).toContain('Google Ads');
    expect(await axeViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Elena Marchetti' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('Provenienza (primo contatto della visita)');
    const details = await dialog.textContent();
    expect(details).toContain('Cj0KCQ-ultimo');
    expect(details).toContain('IwAR0-prima');
    expect(details).toContain('l.facebook.com');
    expect(details).toContain('Dati utente per la pubblicità (ad_user_data)Concesso (granted)');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // Filters live in the address: a reload (or a shared link) shows the same view.
    await insertLead(e2e.site.db, { nome: 'Senza', cognome: 'Campagna', email: 'senza@example.it' });
    await page.getByLabel('utm_campaign', { exact: true }).fill('autunno');
    await page.getByLabel('Clic su un annuncio').selectOption('si');
    await page.getByRole('button', { name: 'Applica filtri' }).click();
    await expect.poll(() => page.url()).toMatch(/utmCampaign=autunno/);
    expect(page.url()).toMatch(/clickId=si/);
    await expect.poll(() => leadsTable(page).getByRole('row').count()).toBe(2);
    await page.reload();
    await expect.poll(() => leadsTable(page).getByRole('row').count()).toBe(2);
    expect(await page.getByLabel('utm_campaign', { exact: true }).inputValue()).toBe('autunno');
    expect(await page.getByLabel('Clic su un annuncio').inputValue()).toBe('si');
    expect(await leadsTable(page).textContent()).not.toContain('Senza Campagna');

    // The export has the filtered leads, every campaign field, and the time in Italian time.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Esporta CSV' }).click()]);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv).toHaveLength(2);
    const header = csv[0]!.split(';');
    const cells = csv[1]!.split(';');
    const cell = (name: string) => cells[header.indexOf(name)];
    expect(header[1]).toBe('data (ora di Roma)');
    expect(cell('data (ora di Roma)')).toBe(romeTime(lead.created_at));
    expect([cell('utm_source'), cell('utm_campaign'), cell('utm_term'), cell('gclid'), cell('referrer_host')]).toEqual([
      'google',
      'autunno',
      'guida finanza',
      'Cj0KCQ-ultimo',
      'www.google.com',
    ]);
    expect([cell('first_utm_source'), cell('first_fbclid'), cell('first_referrer_host')]).toEqual(['facebook', 'IwAR0-prima', 'l.facebook.com']);
    expect([cell('ad_user_data'), cell('ad_personalization')]).toEqual(['granted', 'granted']);

    // The CRM queue calls the skipped delivery skipped.
    await page.getByRole('tab', { name: 'Code' }).click();
    const crmQueue = page.getByRole('region', { name: 'Coda CRM' });
    await expect.poll(() => crmQueue.textContent()).toMatch(/Saltati[1-9]/);
    expect(await crmQueue.textContent()).toMatch(/Completati0/);
    expect(await axeViolations(page)).toEqual([]);

    // Nor first-party analytics: leaving the admin sends whatever it queued (page hide), and
    // once a later public page's view is stored, no admin page has been recorded.
    await land(page, '/privacy', `${e2e.site.baseUrl}/admin/dashboard`);
    await page.goto('about:blank');
    await expect
      .poll(async () => Number((await e2e.site.db('page_views').where({ path: '/privacy' }).count({ count: '*' }).first())?.count), {
        timeout: 20_000,
      })
      .toBe(1);
    for (const table of ['page_views', 'form_interactions', 'section_views']) {
      expect(await e2e.site.db(table).whereLike('path', '/admin%').pluck('path'), table).toEqual([]);
    }

    expect(consoleErrors).toEqual([]);
    await close();
  }, 120_000);
});

describe('the leads table', () => {
  beforeAll(async () => {
    await insertLead(e2e.site.db, {
      nome: 'Vecchio',
      cognome: 'Lead',
      email: 'vecchio@example.it',
      created_at: '2020-01-15T10:00:00Z',
    });
    await insertLead(e2e.site.db, {
      nome: 'Lunghissimo',
      cognome: 'Incollato',
      email: `${'indirizzo.molto.lungo.'.repeat(9)}x@example.it`,
      landing_path: `/${'a'.repeat(299)}`,
      utm_source: LONG_URL,
      utm_campaign: 'c'.repeat(150),
    });
  });

  it('keeps the SMS and CRM columns in view at 1280 px with a pasted 500-character URL, and shows it whole on focus', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport: { width: 1280, height: 800 }, allowConsoleErrors: SIGNED_OUT });
    await signIn(page);
    const table = leadsTable(page);
    const row = table.getByRole('row', { name: /Lunghissimo Incollato/ });
    await row.waitFor();
    // Nothing to scroll sideways, and both status columns end inside the window.
    expect(await table.evaluate((region) => region.scrollWidth <= region.clientWidth)).toBe(true);
    for (const name of ['Stato SMS', 'Stato CRM']) {
      const box = (await table.getByRole('columnheader', { name }).boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(1280);
    }
    const statusBox = (await row.getByRole('cell').last().boundingBox())!;
    expect(statusBox.x + statusBox.width).toBeLessThanOrEqual(1280);

    // The cut value carries the whole of it, and shows it when it takes the keyboard focus.
    const source = row.getByTitle(LONG_URL, { exact: true });
    const clippedHeight = (await source.boundingBox())!.height;
    await source.focus();
    expect(await source.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await source.boundingBox())!.height).toBeGreaterThan(clippedHeight * 3);
    expect(await source.textContent()).toBe(LONG_URL);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await close();
  }, 60_000);

  it('sorts by date from the keyboard, and keeps the order in the address', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport: { width: 1280, height: 800 }, allowConsoleErrors: SIGNED_OUT });
    await signIn(page);
    const table = leadsTable(page);
    await table.getByRole('row', { name: /Vecchio Lead/ }).waitFor();
    const firstLead = async () => (await table.getByRole('row').nth(1).textContent()) ?? '';
    expect(await firstLead()).not.toContain('Vecchio Lead');

    const sort = table.getByRole('button', { name: /Data \(ora di Roma\)/ });
    await sort.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toMatch(/order=asc/);
    await expect.poll(firstLead).toContain('Vecchio Lead');
    expect(await table.getByRole('columnheader', { name: /Data/ }).getAttribute('aria-sort')).toBe('ascending');

    await page.reload();
    await table.getByRole('row', { name: /Vecchio Lead/ }).waitFor();
    expect(await firstLead()).toContain('Vecchio Lead');
    await table.getByRole('button', { name: /Data \(ora di Roma\)/ }).click();
    await expect.poll(() => page.url()).not.toMatch(/order=/);
    await expect.poll(firstLead).not.toContain('Vecchio Lead');
    expect(consoleErrors).toEqual([]);
    await close();
  }, 60_000);
});
