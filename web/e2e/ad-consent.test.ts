import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cookieTexts } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { afterIdleWork } from './idle';
import { fillLeadForm, openPage, privacyCheckbox, useSiteAndBrowser } from './site-harness';

/**
 * Ad data only with consent (issue 27 point 4, decision 049): a click id is written to the
 * browser's storage, sent with the lead and stored only with the marketing cookie consent;
 * the campaign's UTM fields always are.
 */

const e2e = useSiteAndBrowser();
const USERNAME = 'pubblicita';
const PASSWORD = 'Corretta!Cavallo42';
beforeAll(() => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
});

const VIEWPORTS = {
  phone: { width: 360, height: 800 },
  desktop: { width: 1280, height: 800 },
};
const CLICK_ID = 'Cj0KCQiA-adconsent';
const LANDING = `/?utm_source=google&utm_medium=cpc&utm_campaign=inverno&gclid=${CLICK_ID}`;

const banner = (page: Page) => page.getByRole('region', { name: cookieTexts.bannerTitle });
/** Everything this origin keeps in the browser's storage, as text. */
const storage = (page: Page) =>
  page.evaluate(() => JSON.stringify({ session: { ...sessionStorage }, local: { ...localStorage } }));
/** The visit's attribution as kept in sessionStorage. */
const keptAttribution = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('guida-attribution') ?? 'null') as { last: Record<string, string | null> } | null);

let phones = 0;
/** Fills and sends the form; answers the lead as stored and the JSON the page sent. */
async function sendLead(page: Page) {
  phones += 1;
  const telefono = `347 720 ${String(phones).padStart(4, '0')}`;
  const form = await fillLeadForm(page, { nome: 'Giulia', cognome: 'Conti', email: `giulia.${phones}@example.it`, telefono });
  await privacyCheckbox(form).check();
  const posted = page.waitForRequest((request: Request) => request.url().endsWith('/api/ebook-request') && request.method() === 'POST');
  await form.getByRole('button', { name: /guida/i }).click();
  const sent = (await posted).postDataJSON() as Record<string, unknown>;
  await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
  const lead = await e2e.site.db('ebook_requests').where({ telefono: `+39${telefono.replaceAll(' ', '')}` }).first();
  return { lead, sent };
}

/** Lands from the ad and waits until the page is interactive, checking that nothing of the click id was written meanwhile. */
async function landFromTheAd(page: Page) {
  await page.goto(`${e2e.site.baseUrl}${LANDING}`, { referer: 'https://www.google.com/' });
  await page.waitForSelector('html[data-hydrated="true"]');
  // The landing is recorded at hydration, before the cookie choice is known.
  expect(await storage(page)).not.toContain(CLICK_ID);
  expect((await keptAttribution(page))?.last).toMatchObject({ utmSource: 'google', gclid: null });
}

const DENIED = { ad_user_data: 'denied', ad_personalization: 'denied' };

describe.each(Object.entries(VIEWPORTS))('ad data only with consent, on a %s', (_name, viewport) => {
  it('keeps and sends no click id while the visitor has made no choice, and the lead keeps its campaign only', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport });
    await landFromTheAd(page);
    await expect.poll(() => banner(page).count()).toBe(1);
    await afterIdleWork(page);
    expect(await storage(page)).not.toContain(CLICK_ID);

    const { lead, sent } = await sendLead(page);
    expect(JSON.stringify(sent)).not.toContain(CLICK_ID);
    expect(sent).not.toHaveProperty('cookieConsentSessionId');
    expect(lead).toMatchObject({ utm_source: 'google', utm_campaign: 'inverno', referrer_host: 'www.google.com', gclid: null, first_gclid: null, ...DENIED });
    expect(await storage(page)).not.toContain(CLICK_ID);
    expect(consoleErrors).toEqual([]);
    await close();
  }, 60_000);

  it('keeps and sends no click id after "Solo Essenziali"', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport });
    await landFromTheAd(page);
    await banner(page).getByRole('button', { name: cookieTexts.essentialsOnly }).click();
    await expect.poll(() => banner(page).count()).toBe(0);
    await afterIdleWork(page);
    expect(await storage(page)).not.toContain(CLICK_ID);

    const { lead, sent } = await sendLead(page);
    expect(JSON.stringify(sent)).not.toContain(CLICK_ID);
    // The server is told which choice to check, and finds marketing refused.
    expect(sent.cookieConsentSessionId).toEqual(expect.any(String));
    expect(lead).toMatchObject({ utm_source: 'google', gclid: null, first_gclid: null, ...DENIED });
    expect(consoleErrors).toEqual([]);
    await close();
  }, 60_000);

  it('keeps the click id with "Accetta Tutti" and stores it with the ad consent granted; withdrawing marketing cookies drops it', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport });
    await landFromTheAd(page);
    await banner(page).getByRole('button', { name: cookieTexts.acceptAll }).click();
    await expect.poll(async () => (await keptAttribution(page))?.last.gclid).toBe(CLICK_ID);

    const { lead } = await sendLead(page);
    expect(lead).toMatchObject({ utm_source: 'google', gclid: CLICK_ID, first_gclid: CLICK_ID, ad_user_data: 'granted', ad_personalization: 'granted' });

    // Later in the visit the visitor turns the marketing cookies off: the click id goes.
    await page.goto(`${e2e.site.baseUrl}/`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await afterIdleWork(page);
    expect(await storage(page)).toContain(CLICK_ID);
    await page.getByRole('button', { name: cookieTexts.reopen }).click();
    const panel = page.getByRole('dialog', { name: cookieTexts.panelTitle });
    await panel.getByRole('switch', { name: cookieTexts.categories.marketing.title }).click();
    await panel.getByRole('button', { name: cookieTexts.save }).click();
    await expect.poll(() => storage(page)).not.toContain(CLICK_ID);
    // The campaign of the visit stays.
    expect((await keptAttribution(page))?.last).toMatchObject({ utmSource: 'google', gclid: null });

    // And a reload of the ad's address keeps none either.
    await page.goto(`${e2e.site.baseUrl}${LANDING}`);
    await page.waitForSelector('html[data-hydrated="true"]');
    await afterIdleWork(page);
    expect(await storage(page)).not.toContain(CLICK_ID);
    const again = await sendLead(page);
    expect(JSON.stringify(again.sent)).not.toContain(CLICK_ID);
    expect(again.lead).toMatchObject({ utm_source: 'google', gclid: null, first_gclid: null, ...DENIED });
    expect(consoleErrors).toEqual([]);
    await close();
  }, 90_000);
});

describe.each(Object.entries(VIEWPORTS))('the lead detail, on a %s', (_name, viewport) => {
  it('shows the ad consent recorded with the lead, axe clean', async () => {
    const granted = await insertLead(e2e.site.db, {
      nome: 'Concessa',
      cognome: `Annunci ${_name}`,
      gclid: 'Cj0KCQ-detail',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    });
    const denied = await insertLead(e2e.site.db, { nome: 'Negata', cognome: `Annunci ${_name}` });
    // The login page asks for a session first: 401 while signed out.
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport, allowConsoleErrors: /status of 401/ });
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();
    const table = page.getByRole('region', { name: 'Tabella dei lead' });
    for (const [lead, name, state] of [
      [granted, `Concessa Annunci ${_name}`, 'Concesso (granted)'],
      [denied, `Negata Annunci ${_name}`, 'Negato (denied)'],
    ] as const) {
      await table.getByRole('button', { name }).click();
      const dialog = page.getByRole('dialog', { name: `Lead n. ${lead.leadId}` });
      const section = dialog.getByRole('region', { name: 'Consenso pubblicitario all’invio (Google Consent Mode)' });
      await section.waitFor();
      const facts = await section.textContent();
      expect(facts).toContain(`Dati utente per la pubblicità (ad_user_data)${state}`);
      expect(facts).toContain(`Personalizzazione degli annunci (ad_personalization)${state}`);
      // Readable on a 360 px phone: nothing to scroll sideways.
      expect(await section.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await section.scrollIntoViewIfNeeded();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    expect(consoleErrors).toEqual([]);
    await close();
  }, 60_000);
});
