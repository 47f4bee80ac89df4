/**
 * The admin's "Conversioni" tab (decision 062): the Google Ads file downloads with the
 * admin's session, the scheduled URL is shown, and what Google's fetches took appears.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_ADS_EXPORT_PATH } from '@guida/shared/google-ads-conversions';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'conversioni';
const PASSWORD = 'Corretta!Cavallo42';
const EXPORT_USERNAME = 'google-ads';
const EXPORT_PASSWORD = 'k8Zq2pW9vR4xT7mB3nL6';
const HEADER =
  'Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency,Ad User Data,Ad Personalization';

const e2e = useSiteAndBrowser({ GOOGLE_ADS_EXPORT_USERNAME: EXPORT_USERNAME, GOOGLE_ADS_EXPORT_PASSWORD: EXPORT_PASSWORD });

beforeAll(async () => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
  const hourAgo = new Date(Date.now() - 3600 * 1000);
  await insertLead(e2e.site.db, { gclid: 'Cj0e2e', ad_user_data: 'granted', ad_personalization: 'granted', created_at: hourAgo });
  await insertLead(e2e.site.db, { gclid: 'Cj0senzaconsenso', created_at: hourAgo });
});

/** The value (dd) of a term (dt) on the page. */
const figure = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

describe('the admin’s Google Ads conversions', () => {
  it('download as Google’s click conversions file; the scheduled URL and its fetches are shown; axe finds nothing', async () => {
    // The login page's session check answers 401 before the admin signs in.
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport: { width: 1280, height: 800 }, allowConsoleErrors: /status of 401/ });
    try {
      await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
      await page.getByRole('tab', { name: 'Conversioni' }).click();
      const panel = page.getByRole('tabpanel');
      await panel.getByRole('heading', { name: 'Caricamento programmato' }).waitFor();
      expect(await panel.textContent()).toContain(`Attivo. In Google Ads pianifica`);
      expect(await panel.locator('code').textContent()).toBe(`${e2e.site.baseUrl}${GOOGLE_ADS_EXPORT_PATH}`);
      expect(await figure(page, 'Conversione alla richiesta').textContent()).toBe('Richiesta guida');
      expect(await figure(page, 'Richieste inviate a Google Ads').textContent()).toBe('0');
      expect(await axeViolations(page)).toEqual([]);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Esporta conversioni Google Ads (CSV)' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^conversioni-google-ads-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n');
      expect(lines.slice(0, 2)).toEqual(['Parameters:TimeZone=Europe/Rome', HEADER]);
      expect(lines.slice(2)).toEqual([
        expect.stringMatching(/^Cj0e2e,,,Richiesta guida,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},,EUR,Granted,Granted$/),
        '',
      ]);
      expect(await e2e.site.db('admin_audit_log').where({ action: 'export_google_ads_conversions' }).count({ n: '*' }).first()).toEqual({
        n: 1,
      });

      // Google's scheduled fetch, as its fetcher makes it: the tab then shows what it took.
      const fetched = await fetch(`${e2e.site.baseUrl}${GOOGLE_ADS_EXPORT_PATH}`, {
        headers: { authorization: `Basic ${Buffer.from(`${EXPORT_USERNAME}:${EXPORT_PASSWORD}`).toString('base64')}` },
      });
      expect((await fetched.text()).split('\r\n')[2]).toMatch(/^Cj0e2e,/);
      await page.reload();
      await expect.poll(() => figure(page, 'Richieste inviate a Google Ads').textContent()).toBe('1');
      expect(await figure(page, 'Ultimo download di Google Ads').textContent()).not.toBe('—');
      expect(await axeViolations(page)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('reads on a 360 px phone without sideways scrolling', async () => {
    const { page, close } = await openPage(e2e.browser, { viewport: { width: 360, height: 740 } });
    try {
      await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
      await page.getByRole('tab', { name: 'Conversioni' }).click();
      await page.getByRole('heading', { name: 'Caricamento programmato' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });
});
