/**
 * Once the offer has ended (decision 047), the pages show so in place of the guide form,
 * learnt from the site settings after load (the pages are prerendered with the form), and
 * no countdown or places; a request sent while the page still showed the form gets the
 * intake's 410 and the form gives way to the same state.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { offerEndedTexts } from '@guida/shared/messages';
import { axeViolations } from './axe';
import { fillLeadForm, gotoInteractive, openPage, privacyCheckbox, useBrowser, withSite, type Site } from './site-harness';

const e2e = useBrowser();

const SIZES = [
  { name: 'phone', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

const endedHeading = (page: Page) => page.getByRole('heading', { name: offerEndedTexts.title, exact: true });
const form = (page: Page) => page.locator('form#richiedi-guida');

/** A place taken since the offer's start, as the intake writes it (the key of some phone). */
const takePlace = (site: Site) => site.db('offer_places').insert({ phone_key: Buffer.from(crypto.getRandomValues(new Uint8Array(32))) });

async function expectEndedInsteadOfForm(page: Page, text: string) {
  await endedHeading(page).waitFor();
  const region = page.getByRole('region', { name: offerEndedTexts.title });
  expect(await region.getByText(text, { exact: true }).isVisible()).toBe(true);
  // Not hidden: gone. Nothing to fill in that could not be sent.
  expect(await form(page).count()).toBe(0);
  expect(await page.getByRole('textbox').count()).toBe(0);
  const box = await region.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

describe('an ended offer', () => {
  it.each(SIZES)('past its deadline: the landing pages and the articles show it instead of the form, without a countdown, axe clean ($name)', async (size) => {
    await withSite({ OFFER_ENDS_AT: new Date(Date.now() - 60_000).toISOString() }, async (site) => {
      const { page, consoleErrors, close } = await openPage(e2e.browser, { ...size, bypassCSP: true });
      for (const path of ['/', '/trading-old', '/pianificazione-finanziaria']) {
        await gotoInteractive(page, `${site.baseUrl}${path}`);
        await expectEndedInsteadOfForm(page, offerEndedTexts.deadline);
        await page.waitForLoadState('networkidle');
        expect(await page.getByRole('timer').count()).toBe(0);
        expect(await page.getByText(/Posti gratuiti rimasti/).count()).toBe(0);
        expect(await axeViolations(page), path).toEqual([]);
      }
      expect(consoleErrors).toEqual([]);
      await close();
    });
  });

  it.each(SIZES)('with every place taken: the places text, and no countdown or places on the older page ($name)', async (size) => {
    await withSite({ FREE_PLACES_TOTAL: '1', OFFER_ENDS_AT: new Date(Date.now() + 3 * 3600_000).toISOString() }, async (site) => {
      await takePlace(site);
      const { page, consoleErrors, close } = await openPage(e2e.browser, { ...size, bypassCSP: true });
      await gotoInteractive(page, `${site.baseUrl}/trading-old`);
      await expectEndedInsteadOfForm(page, offerEndedTexts.places);
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('complementary', { name: 'Offerta Limitata' }).count()).toBe(0);
      expect(await page.getByRole('timer').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await close();
    });
  });

  it('that ends while the page shows the form: the request gets the 410 and the form gives way, focus on the heading', async () => {
    await withSite({ FREE_PLACES_TOTAL: '1' }, async (site) => {
      const { page, close } = await openPage(e2e.browser, { ...SIZES[0], allowConsoleErrors: /status of 410/ });
      await gotoInteractive(page, `${site.baseUrl}/`);
      await page.waitForLoadState('networkidle');
      expect(await form(page).count()).toBe(1);

      // The last place goes to someone else meanwhile.
      await takePlace(site);
      const filled = await fillLeadForm(page, { nome: 'Giulia', cognome: 'Bianchi', email: 'giulia@example.it', telefono: '347 123 4567' });
      await privacyCheckbox(filled).check();
      await filled.getByRole('button', { name: /guida/i }).click();

      await expectEndedInsteadOfForm(page, offerEndedTexts.places);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(offerEndedTexts.title);
      expect(page.url()).toBe(`${site.baseUrl}/`);
      expect(Number((await site.db('ebook_requests').count({ n: '*' }).first())?.n)).toBe(0);
      await close();
    });
  });
});
