import { beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TITLES, alertDetailLines, alertTexts } from '@guida/shared/alerts';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'reperibile';
const PASSWORD = 'Corretta!Cavallo42';
const crmDetails = { failingMinutes: 42, thresholdMinutes: 15, failedDeliveries: 7, lastHttpStatus: 503 };
const p95Details = { p95Seconds: 104.5, thresholdSeconds: 90, sms: 31, windowMinutes: 10 };

let openIds: number[];
const e2e = useSiteAndBrowser();
beforeAll(async () => {
  const { site } = e2e;
  createAdmin(site, USERNAME, PASSWORD);
  const now = Date.now();
  const rows = await site.db('alert_incidents')
    .insert([
      { kind: 'crm_failing', opened_at: new Date(now - 42 * 60_000), details: JSON.stringify(crmDetails), updated_at: new Date(now) },
      {
        kind: 'sms_p95',
        opened_at: new Date(now - 3 * 3600_000),
        resolved_at: new Date(now - 2 * 3600_000),
        details: JSON.stringify(p95Details),
        updated_at: new Date(now - 2 * 3600_000),
      },
    ])
    .returning<{ id: number; kind: string }[]>(['id', 'kind']);
  openIds = rows.filter((row) => row.kind === 'crm_failing').map((row) => row.id);
});

describe('alert incidents in the admin', () => {
  it('shows the open incidents in a red banner on every tab, the resolved ones behind a disclosure usable from the keyboard', async () => {
    const { site, browser } = e2e;
    const { page, close, consoleErrors } = await openPage(browser);
    await signInAsAdmin(page, site, USERNAME, PASSWORD);

    const banner = page.getByRole('region', { name: alertTexts.bannerTitle });
    await banner.waitFor();
    const text = await banner.textContent();
    expect(text).toContain(ALERT_TITLES.crm_failing);
    expect(text).toContain(alertTexts.since);
    for (const line of alertDetailLines({ kind: 'crm_failing', details: crmDetails })) expect(text).toContain(line);
    expect(text).not.toContain(ALERT_TITLES.sms_p95);
    expect(await page.getByRole('status').filter({ hasText: '1 avviso aperto' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // The resolved ones: from the keyboard, right after the header's last control.
    await page.getByRole('button', { name: 'Esci' }).focus();
    await page.keyboard.press('Tab');
    const summary = page.getByText(`${alertTexts.resolvedTitle} (1)`);
    expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true);
    const resolvedLine = page.getByText(alertDetailLines({ kind: 'sms_p95', details: p95Details })[0]!);
    expect(await resolvedLine.isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await expect.poll(() => resolvedLine.isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Code' }).click();
    expect(await banner.isVisible()).toBe(true);

    // Resolved by the worker: the banner goes at the next refresh.
    await site.db('alert_incidents').whereIn('id', openIds).update({ resolved_at: new Date() });
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByText(`${alertTexts.resolvedTitle} (2)`).count()).toBe(1);
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  });
});
