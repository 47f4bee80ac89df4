import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isSwissPath, MARKETING_CONSENT_VERSION } from '@guida/shared/lead-rules';
import { formMessages, marketingConsentText, validationMessages } from '@guida/shared/messages';
import { SITE_PAGE_PATHS } from '../app/page-paths';
import {
  fillLeadForm,
  gotoInteractive,
  marketingCheckbox,
  openPage,
  privacyCheckbox,
  useSiteAndBrowser,
} from './site-harness';

let phoneCounter = 0;

const e2e = useSiteAndBrowser();

/** Seven digits unique to this test run, for distinct mobile numbers. */
const nextDigits = () => String(((process.pid % 1000) * 10_000 + ++phoneCounter) % 10_000_000).padStart(7, '0');
const italianMobile = () => `347 ${nextDigits()}`;
const swissMobile = () => `+41 79 ${nextDigits()}`;
/** The lead stored for a number as typed, with the types of its consent proofs. */
async function storedLead(telefono: string) {
  const digits = telefono.replace(/\D/g, '');
  const lead = await e2e.site.db('ebook_requests').whereLike('telefono', `%${digits.slice(-7)}`).orderBy('id', 'desc').first();
  const consents = await e2e.site.db('gdpr_consents').where({ lead_id: lead.id }).orderBy('consent_type');
  return { lead, consents };
}

const LANDINGS: [string, string | null][] = [
  ['/', 'financial-education'],
  ['/trading-automatico', 'financial-education'],
  ['/ai-trading-native', 'financial-education'],
  ['/trading-news-native', 'financial-education'],
  ['/market-report-native', 'investment-education'],
  ['/educazione-investimenti', 'investment-education'],
  ['/trading-old', null],
];

describe('each landing page', () => {
  it.each(LANDINGS)('%s submits and lands on the thank-you page of the number', async (path, ebookType) => {
    for (const [telefono, expected] of [
      [italianMobile(), '/grazie-italia'],
      // The older page always thanks on the Italian page (spec), in words for a Swiss number.
      [swissMobile(), path === '/trading-old' ? '/grazie-italia?prefisso=41' : '/grazie-svizzera'],
    ] as const) {
      const { page, consoleErrors, close } = await openPage(e2e.browser);
      await gotoInteractive(page, `${e2e.site.baseUrl}${path}?utm_source=newsletter&utm_medium=email&utm_campaign=autunno`);
      const form = await fillLeadForm(page, { nome: 'Giulia', cognome: 'Romano', email: 'giulia@example.it', telefono });
      await privacyCheckbox(form).check();
      await form.getByRole('button', { name: /guida/i }).click();
      await page.waitForURL(`${e2e.site.baseUrl}${expected}`);
      expect(await page.locator('h1').isVisible()).toBe(true);
      expect(consoleErrors).toEqual([]);
      await close();

      const digits = telefono.replace(/\D/g, '');
      const lead = await e2e.site.db('ebook_requests').whereLike('telefono', `%${digits.slice(-7)}`).orderBy('id', 'desc').first();
      expect(lead).toMatchObject({ landing_path: path, ebook_type: ebookType ?? 'general' });
      // Every page sends the visit's campaign; the older page no guide type or source of its own.
      expect(lead).toMatchObject({
        source: ebookType ? 'landing-page' : 'direct',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'autunno',
        first_utm_source: 'newsletter',
      });
    }
  });
});

describe('the form on a newer page', () => {
  it('shows the spec message under each invalid field and the consent toast', async () => {
    const { page, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/educazione-investimenti`);
    const form = page.locator('form#richiedi-guida');
    await form.getByRole('button', { name: /guida/i }).click();
    for (const message of Object.values({
      nome: validationMessages.nome,
      cognome: validationMessages.cognome,
      email: validationMessages.email,
      telefono: validationMessages.telefono,
      gdprConsent: validationMessages.gdprConsent,
    })) {
      await expect.poll(() => form.getByText(message, { exact: true }).count()).toBe(1);
    }
    const toast = page.getByRole('status').filter({ hasText: formMessages.consentRequiredTitle });
    await expect.poll(() => toast.count()).toBe(1);
    expect(await toast.textContent()).toContain(formMessages.consentRequiredText);

    // Fixing a field clears its message on the next submit.
    await fillLeadForm(page, { nome: 'Anna', cognome: 'Ferri', email: 'anna@', telefono: '02 1234 5678' });
    await form.getByRole('button', { name: /guida/i }).click();
    await expect.poll(() => form.getByText(validationMessages.nome, { exact: true }).count()).toBe(0);
    expect(await form.getByText(validationMessages.email, { exact: true }).count()).toBe(1);
    expect(await form.getByText(validationMessages.telefono, { exact: true }).count()).toBe(1);
    await close();
  });

  it('shows the pending label and disables the button while sending', async () => {
    const { page, close } = await openPage(e2e.browser);
    // The post is held at the network until the button has been checked. Both promises exist
    // before the post does: the label can show before Playwright hands the post to the route
    // handler (a clean-clone run released it before, and the post then waited forever).
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let postHeld = () => {};
    const held = new Promise<void>((resolve) => (postHeld = resolve));
    await page.route('**/api/ebook-request', async (route) => {
      postHeld();
      await released;
      await route.continue();
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    const form = await fillLeadForm(page, { nome: 'Luca', cognome: 'Neri', email: 'luca@example.it', telefono: italianMobile() });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await held;
    const pending = form.getByRole('button', { name: formMessages.submitting });
    await expect.poll(() => pending.count()).toBe(1);
    expect(await pending.isDisabled()).toBe(true);
    release();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
    await close();
  });

  it('shows the server message in red and in an "Errore" toast, or the page fallback', async () => {
    const { page, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of (500|503)/ });
    const answers = [
      { status: 503, body: JSON.stringify({ message: 'Il servizio è momentaneamente non disponibile. Riprova tra qualche minuto.' }) },
      { status: 500, body: '' },
    ];
    await page.route('**/api/ebook-request', (route) => route.fulfill({ ...answers.shift()!, contentType: 'application/json' }));
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    const form = await fillLeadForm(page, { nome: 'Sara', cognome: 'Galli', email: 'sara@example.it', telefono: italianMobile() });
    await privacyCheckbox(form).check();

    await form.getByRole('button', { name: /guida/i }).click();
    const alert = form.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Il servizio è momentaneamente non disponibile. Riprova tra qualche minuto.');
    const toast = page.getByRole('status').filter({ hasText: formMessages.errorTitle });
    await expect.poll(() => toast.textContent()).toContain('Il servizio è momentaneamente non disponibile');

    await form.getByRole('button', { name: /guida/i }).click();
    await expect.poll(() => alert.textContent()).toBe(formMessages.errorFallbackNewerPages);
    expect(page.url()).toBe(`${e2e.site.baseUrl}/`);
    await close();
  });

  it('puts the server’s field messages under the fields', async () => {
    const { page, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of 400/ });
    await page.route('**/api/ebook-request', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: validationMessages.telefono, errors: { telefono: validationMessages.telefono } }),
      }),
    );
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    const form = await fillLeadForm(page, { nome: 'Sara', cognome: 'Galli', email: 'sara@example.it', telefono: italianMobile() });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await expect.poll(() => form.getByText(validationMessages.telefono).count()).toBe(2);
    await close();
  });
});

describe('the optional marketing consent', () => {
  it('is unticked on a phone, and a lead sent without ticking it has no marketing consent', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, {
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}/trading-old`);
    const telefono = italianMobile();
    const form = await fillLeadForm(page, { nome: 'Teresa', cognome: 'Moro', email: 'teresa@example.it', telefono });
    const marketing = marketingCheckbox(form);
    expect(await marketing.isChecked()).toBe(false);
    await privacyCheckbox(form).tap();
    const posted = page.waitForRequest('**/api/ebook-request');
    await form.getByRole('button', { name: /guida/i }).tap();
    expect((await posted).postDataJSON()).toMatchObject({ gdprConsent: true, marketingConsent: false });
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
    expect(consoleErrors).toEqual([]);
    await close();

    const { lead, consents } = await storedLead(telefono);
    expect(lead).toMatchObject({ gdpr_consent: true, marketing_consent: false, marketing_consent_version: null });
    expect(consents.map((consent) => consent.consent_type)).toEqual(['privacy']);
  });

  it('ticked, is stored with a consent proof of its own, and never stands in for the privacy consent', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, { viewport: { width: 1280, height: 800 } });
    let posts = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/ebook-request')) posts += 1;
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}/educazione-investimenti`);
    const telefono = italianMobile();
    const form = await fillLeadForm(page, { nome: 'Paolo', cognome: 'Gatti', email: 'paolo@example.it', telefono });
    // Its label ticks it; alone it does not send the form.
    await form.getByText(marketingConsentText, { exact: true }).click();
    expect(await marketingCheckbox(form).isChecked()).toBe(true);
    expect(await privacyCheckbox(form).isChecked()).toBe(false);
    await form.getByRole('button', { name: /guida/i }).click();
    await expect.poll(() => form.getByText(validationMessages.gdprConsent, { exact: true }).count()).toBe(1);
    expect(posts).toBe(0);

    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
    expect(posts).toBe(1);
    expect(consoleErrors).toEqual([]);
    await close();

    const { lead, consents } = await storedLead(telefono);
    expect(lead).toMatchObject({ gdpr_consent: true, marketing_consent: true, marketing_consent_version: MARKETING_CONSENT_VERSION });
    expect(consents.map((consent) => consent.consent_type)).toEqual(['marketing', 'privacy']);
    const [marketing, privacy] = consents;
    expect(marketing).toMatchObject({
      consented: true,
      consent_version: MARKETING_CONSENT_VERSION,
      consent_text_hash: createHash('sha256').update(marketingConsentText).digest('hex'),
      email: 'paolo@example.it',
      ip_address: privacy.ip_address,
      user_agent: privacy.user_agent,
    });
  });
});

describe('the phone help next to Cellulare', () => {
  const help = (page: Page) => page.locator('form#richiedi-guida').getByRole('button', { name: 'Perché il cellulare?' });
  const helpText = (page: Page) => page.locator('form#richiedi-guida').getByText('Accettiamo cellulari italiani (+39) e svizzeri (+41).');

  it('opens by tap and closes on a tap elsewhere', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    expect(await help(page).getAttribute('aria-expanded')).toBe('false');
    expect(await helpText(page).isVisible()).toBe(false);
    await help(page).tap();
    expect(await help(page).getAttribute('aria-expanded')).toBe('true');
    expect(await helpText(page).isVisible()).toBe(true);
    // The text takes its own line: the field under it stays free to tap.
    const [text, field] = await Promise.all([helpText(page).boundingBox(), page.getByLabel('Cellulare', { exact: true }).boundingBox()]);
    expect(text!.y + text!.height).toBeLessThanOrEqual(field!.y);
    await help(page).tap();
    expect(await helpText(page).isVisible()).toBe(false);
    await help(page).tap();
    await page.locator('form#richiedi-guida h2').tap();
    expect(await help(page).getAttribute('aria-expanded')).toBe('false');
    expect(await helpText(page).isVisible()).toBe(false);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('opens by keyboard and closes on Escape', async () => {
    const { page, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/educazione-investimenti`);
    await page.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await help(page).evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await helpText(page).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await helpText(page).isVisible()).toBe(false);
    expect(await help(page).evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await help(page).getAttribute('aria-expanded')).toBe('true');
    await close();
  });

  it('closes on an Escape that comes before the render that opened it has run its effects', async () => {
    const { page, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/`);
    // Both in one task: the browser may run a key press before the task of the effects.
    await help(page).evaluate((button) => {
      (button as HTMLButtonElement).click();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(await help(page).getAttribute('aria-expanded')).toBe('false');
    expect(await helpText(page).isVisible()).toBe(false);
    await close();
  });
});

describe('the phone field', () => {
  it('shows a +41 example on Swiss pages and a +39 one elsewhere', async () => {
    const withForm = [...SITE_PAGE_PATHS].filter((path) => !path.startsWith('/grazie') && !['/privacy', '/gdpr', '/welcome'].includes(path));
    for (const path of withForm) {
      const html = await (await fetch(`${e2e.site.baseUrl}${path}`)).text();
      const placeholder = /<input[^>]*type="tel"[^>]*placeholder="([^"]*)"/.exec(html)?.[1];
      expect([path, placeholder]).toEqual([path, isSwissPath(path) ? '+41 79 123 45 67' : '+39 347 123 4567']);
    }
    const { page, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/oro-svizzera`);
    expect(await page.getByLabel('Cellulare', { exact: true }).getAttribute('placeholder')).toBe('+41 79 123 45 67');
    await close();
  });
});

describe('the thank-you page', () => {
  const submit = async (path: string, telefono: string) => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}${path}`);
    const form = await fillLeadForm(page, { nome: 'Sara', cognome: 'Galli', email: 'sara@example.ch', telefono });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    return { page, consoleErrors, close };
  };

  it('speaks of the visitor’s number, not of the page’s country', async () => {
    const italianOnSwiss = await submit('/oro-svizzera', italianMobile());
    await italianOnSwiss.page.waitForURL(`${e2e.site.baseUrl}/grazie-svizzera?prefisso=39`);
    await expect.poll(() => italianOnSwiss.page.locator('main').textContent()).toContain('con il prefisso italiano +39');
    expect(await italianOnSwiss.page.locator('main').textContent()).not.toContain('cellulare svizzero');
    expect(italianOnSwiss.consoleErrors).toEqual([]);
    await italianOnSwiss.close();

    const swissOnOlder = await submit('/trading-old', swissMobile());
    await swissOnOlder.page.waitForURL(`${e2e.site.baseUrl}/grazie-italia?prefisso=41`);
    await expect.poll(() => swissOnOlder.page.locator('main').textContent()).toContain('cellulare svizzero');
    expect(await swissOnOlder.page.locator('main').textContent()).not.toContain('prefisso italiano');
    await swissOnOlder.close();
  });

  it('switches the copy after hydration when opened from the address (the plain form’s redirect)', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser);
    await gotoInteractive(page, `${e2e.site.baseUrl}/grazie-svizzera?prefisso=39`);
    await expect.poll(() => page.locator('main').textContent()).toContain('con il prefisso italiano +39');
    await gotoInteractive(page, `${e2e.site.baseUrl}/grazie-svizzera`);
    expect(await page.locator('main').textContent()).toContain('cellulare svizzero');
    // No hydration mismatch was reported.
    expect(consoleErrors).toEqual([]);
    await close();
  });
});

describe('the older page form', () => {
  it('requires the privacy checkbox natively and sends nothing without it', async () => {
    const { page, close } = await openPage(e2e.browser);
    let posted = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/ebook-request')) posted += 1;
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}/trading-old`);
    const form = await fillLeadForm(page, { nome: 'Elena', cognome: 'Costa', email: 'elena@example.it', telefono: italianMobile() });
    await form.getByRole('button', { name: /guida/i }).click();
    const valid = await privacyCheckbox(form).evaluate((box: HTMLInputElement) => box.validity.valid);
    expect(valid).toBe(false);
    expect(await form.getByText(validationMessages.gdprConsent).count()).toBe(0);
    expect(posted).toBe(0);
    await close();
  });
});

describe('without JavaScript', () => {
  it('posts the plain form and lands on the thank-you page', async () => {
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(`${e2e.site.baseUrl}/educazione-investimenti?utm_source=partner`);
    const telefono = swissMobile();
    const form = await fillLeadForm(page, { nome: 'Marco', cognome: 'Villa', email: 'marco@example.ch', telefono });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-svizzera`);
    expect(await page.locator('h1').textContent()).toBeTruthy();
    const digits = telefono.replace(/\D/g, '');
    const lead = await e2e.site.db('ebook_requests').where({ telefono: `+${digits}` }).first();
    expect(lead).toMatchObject({ landing_path: '/educazione-investimenti', ebook_type: 'investment-education', utm_source: 'partner' });
    expect(lead).toMatchObject({ marketing_consent: false, marketing_consent_version: null });
    await close();
  });

  it('shows and posts the older page’s form, further down a longer page', async () => {
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(`${e2e.site.baseUrl}/trading-old`);
    const telefono = italianMobile();
    const form = await fillLeadForm(page, { nome: 'Sara', cognome: 'Conti', email: 'sara@example.it', telefono });
    expect(await form.isVisible()).toBe(true);
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
    await close();
    expect((await storedLead(telefono)).lead).toMatchObject({ landing_path: '/trading-old', ebook_type: 'general' });
  });

  it('sends a ticked marketing consent with the plain form', async () => {
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(`${e2e.site.baseUrl}/`);
    const telefono = italianMobile();
    const form = await fillLeadForm(page, { nome: 'Irene', cognome: 'Fabbri', email: 'irene@example.it', telefono });
    await privacyCheckbox(form).check();
    await marketingCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
    await close();

    const { lead, consents } = await storedLead(telefono);
    expect(lead).toMatchObject({ marketing_consent: true, marketing_consent_version: MARKETING_CONSENT_VERSION });
    expect(consents.map((consent) => consent.consent_type)).toEqual(['marketing', 'privacy']);
  });

  it('shows the Italian error page for an invalid plain form', async () => {
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(`${e2e.site.baseUrl}/`);
    const form = await fillLeadForm(page, { nome: 'M', cognome: 'Villa', email: 'marco@example.it', telefono: italianMobile() });
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForLoadState();
    expect(await page.locator('h1').textContent()).toBe('Controlla i dati inseriti');
    expect(await page.locator('body').textContent()).toContain(validationMessages.nome);
    await close();
  });
});
