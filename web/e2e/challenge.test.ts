import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdprFormTexts } from '@guida/shared/gdpr-messages';
import { challengePage, challengeWidgetTexts } from '@guida/shared/messages';
import { axeViolations } from './axe';
import { fillLeadForm, gotoInteractive, openPage, startSite, useBrowser, type Site } from './site-harness';

let phoneCounter = 0;

const e2e = useBrowser();

const italianMobile = () =>
  `347 ${String(((process.pid % 1000) * 10_000 + 5000 + ++phoneCounter) % 10_000_000).padStart(7, '0')}`;

/** Every request the page made to the API's challenge endpoints and for the widget's code. */
function challengeTraffic(page: Page) {
  const urls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/challenge') || /challenge-widget|pbkdf2/.test(url.pathname)) urls.push(url.pathname);
  });
  return urls;
}

async function submitLead(page: Page, baseUrl: string, email: string) {
  await gotoInteractive(page, `${baseUrl}/`);
  const form = await fillLeadForm(page, { nome: 'Elena', cognome: 'Conti', email, telefono: italianMobile() });
  await form.getByRole('checkbox', { name: /informativa sulla privacy/i }).check();
  await form.getByRole('button', { name: /guida/i }).click();
  return form;
}

describe('with the default challenge mode (auto)', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CHALLENGE_MODE: 'auto' });
  });
  afterAll(async () => {
    await site?.stop();
  });

  it('a visitor sees no widget and loads none of its code', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    const traffic = challengeTraffic(page);
    const form = await submitLead(page, site.baseUrl, 'elena.auto@example.it');
    await page.waitForURL(`${site.baseUrl}/grazie-italia`);
    expect(await form.locator('altcha-widget').count()).toBe(0);
    expect(traffic).toEqual(['/api/challenge/status']);
    expect(consoleErrors).toEqual([]);
    await close();
    expect(await site.db('ebook_requests').where({ email: 'elena.auto@example.it' }).first()).toBeDefined();
  });
});

describe('with CHALLENGE_MODE=always', () => {
  let site: Site;
  beforeAll(async () => {
    // Cheap solutions: the browser on a busy test machine proves the flow, not the cost.
    site = await startSite({ CHALLENGE_MODE: 'always', CHALLENGE_COST: '100' });
  });
  afterAll(async () => {
    await site?.stop();
  });

  it('the widget solves while the visitor types, accessibly and in Italian, and the lead is stored', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    const traffic = challengeTraffic(page);
    await gotoInteractive(page, `${site.baseUrl}/`);
    const form = await fillLeadForm(page, { nome: 'Elena', cognome: 'Conti', email: 'elena.sempre@example.it' });
    const widget = form.locator('altcha-widget');
    await expect.poll(() => widget.getByText(challengeWidgetTexts.verified, { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    expect(await widget.getByRole('checkbox', { name: challengeWidgetTexts.verified }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await fillLeadForm(page, { telefono: italianMobile() });
    await form.getByRole('checkbox', { name: /informativa sulla privacy/i }).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${site.baseUrl}/grazie-italia`);
    // No CSP violation (they are console errors): scripts, worker and styles from our origin.
    expect(consoleErrors).toEqual([]);
    expect(traffic).toEqual(expect.arrayContaining(['/api/challenge/status', '/api/challenge']));
    await close();
    expect(await site.db('ebook_requests').where({ email: 'elena.sempre@example.it' }).first()).toBeDefined();
  });

  it('a submission the API refuses for want of a solution is sent again once the widget solved', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of 428/ });
    // As if the status answer were lost: the form learns it from the refused submission.
    await page.route('**/api/challenge/status', (route) => route.fulfill({ json: { required: false } }));
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/ebook-request')) answers.push(response.status());
    });
    await submitLead(page, site.baseUrl, 'elena.dopo@example.it');
    await page.waitForURL(`${site.baseUrl}/grazie-italia`, { timeout: 30_000 });
    expect(answers).toEqual([428, 201]);
    expect(consoleErrors).toEqual([]);
    await close();
    expect(await site.db('ebook_requests').where({ email: 'elena.dopo@example.it' }).first()).toBeDefined();
  });

  it('without JavaScript the form gets an Italian page, nothing is stored, and its link brings the visitor back to the form', async () => {
    const landing = `${site.baseUrl}/trading-milano?utm_source=partner`;
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(landing);
    const telefono = italianMobile();
    const form = await fillLeadForm(page, { nome: 'Elena', cognome: 'Conti', email: 'elena.senza-js@example.it', telefono });
    await form.getByRole('checkbox', { name: /informativa sulla privacy/i }).check();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/ebook-request')),
      form.getByRole('button', { name: /guida/i }).click(),
    ]);
    expect(answer.status()).toBe(428);
    await page.waitForLoadState();
    expect(await page.locator('h1').textContent()).toBe(challengePage.title);
    const text = await page.locator('main').textContent();
    for (const paragraph of [challengePage.why, challengePage.nothingSent, challengePage.how]) expect(text).toContain(paragraph);
    expect(await site.db('ebook_requests').where({ email: 'elena.senza-js@example.it' }).first()).toBeUndefined();

    // Back to the form of the page it came from, campaign included.
    await page.getByRole('link', { name: challengePage.back }).click();
    await page.waitForURL(`${landing}#richiedi-guida`);
    expect(await page.locator('form#richiedi-guida').isVisible()).toBe(true);
    await close();

    // Where JavaScript runs, the same address gives the form with the widget, and the lead goes through.
    const browser = await openPage(e2e.browser);
    await gotoInteractive(browser.page, `${landing}#richiedi-guida`);
    const again = await fillLeadForm(browser.page, { nome: 'Elena', cognome: 'Conti', email: 'elena.senza-js@example.it', telefono });
    const widget = again.locator('altcha-widget');
    await expect.poll(() => widget.getByText(challengeWidgetTexts.verified, { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    await again.getByRole('checkbox', { name: /informativa sulla privacy/i }).check();
    await again.getByRole('button', { name: /guida/i }).click();
    await browser.page.waitForURL(`${site.baseUrl}/grazie-italia`, { timeout: 30_000 });
    expect(browser.consoleErrors).toEqual([]);
    await browser.close();
    expect(await site.db('ebook_requests').where({ email: 'elena.senza-js@example.it' }).first()).toMatchObject({
      landing_path: '/trading-milano',
      utm_source: 'partner',
    });
  });

  it('without JavaScript the data-rights form gets the page too, with its way back', async () => {
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(`${site.baseUrl}/gdpr`);
    const form = page.locator('form#richiesta-gdpr');
    await form.getByLabel(gdprFormTexts.emailLabel).fill('dati.senza-js@example.it');
    await form.getByLabel(gdprFormTexts.typeLabel).selectOption('access');
    await form.getByRole('button', { name: gdprFormTexts.submit }).click();
    await page.waitForLoadState();
    expect(await page.locator('h1').textContent()).toBe(challengePage.title);
    await page.getByRole('link', { name: challengePage.back }).click();
    await page.waitForURL(`${site.baseUrl}/gdpr#richiesta-gdpr`);
    await close();
    expect(await site.db('gdpr_data_requests').where({ email: 'dati.senza-js@example.it' }).first()).toBeUndefined();
  });

  it('the widget works from the keyboard on the GDPR form', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${site.baseUrl}/gdpr`);
    const form = page.locator('form#richiesta-gdpr');
    await form.getByLabel(gdprFormTexts.emailLabel).fill('dati.sempre@example.it');
    const widget = form.locator('altcha-widget');
    await expect.poll(() => widget.getByText(challengeWidgetTexts.verified, { exact: true }).count(), { timeout: 30_000 }).toBe(1);
    await form.getByLabel(gdprFormTexts.typeLabel).selectOption('access');
    await form.getByLabel(gdprFormTexts.typeLabel).focus();
    // From the select, Tab reaches the widget's checkbox before the submit button.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('altcha-widget') !== null)).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: gdprFormTexts.successTitle }).count()).toBe(1);
    expect(consoleErrors).toEqual([]);
    await close();
    expect(await site.db('gdpr_data_requests').where({ email: 'dati.sempre@example.it' }).first()).toBeDefined();
  });
});
