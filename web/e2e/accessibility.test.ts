import { describe, expect, it } from 'vitest';
import { cookieTexts, validationMessages } from '@guida/shared/messages';
import { SITE_PAGE_PATHS } from '../app/page-paths';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const PATHS = [...SITE_PAGE_PATHS, '/pagina-inesistente'];

const e2e = useSiteAndBrowser();

describe('axe-core', () => {
  it.concurrent.for(PATHS)('finds no violations on %s (with the cookie banner open)', async (url, { expect }) => {
    const { page, close } = await openPage(e2e.browser, { bypassCSP: true });
    await page.goto(`${e2e.site.baseUrl}${url}`);
    // The banner opens once the page is idle after hydration: axe sees it on every run.
    await page.getByRole('region', { name: cookieTexts.bannerTitle }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it('finds no violations in the cookie panel and on the validation errors', async () => {
    const { page, close } = await openPage(e2e.browser, { bypassCSP: true, viewport: { width: 360, height: 740 } });
    await page.goto(`${e2e.site.baseUrl}/`);
    await page.getByRole('button', { name: cookieTexts.customize }).click();
    await page.getByRole('dialog').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    const form = page.locator('form#richiedi-guida');
    await form.getByRole('button', { name: /guida/i }).click();
    const { nome, cognome, email, telefono, gdprConsent } = validationMessages;
    for (const message of [nome, cognome, email, telefono, gdprConsent]) {
      await expect.poll(() => form.getByText(message, { exact: true }).count()).toBe(1);
    }
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});
