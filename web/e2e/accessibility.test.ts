import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieTexts } from '@guida/shared/messages';
import { CITY_PATHS, FINANCE_LANDING_PATHS, INVESTMENT_LANDING_PATHS, THANK_YOU_PATHS, TOPIC_PATHS } from '../app/page-paths';
import { launchChromium, openPage, startSite, type Site } from './site-harness';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PATHS = [
  ...FINANCE_LANDING_PATHS,
  ...INVESTMENT_LANDING_PATHS,
  '/trading-old',
  ...TOPIC_PATHS,
  ...CITY_PATHS,
  '/privacy',
  '/gdpr',
  ...THANK_YOU_PATHS,
  '/welcome',
  '/pagina-inesistente',
];

let site: Site;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function violations(page: Page) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run(options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('axe-core', () => {
  it.each(PATHS)('finds no violations on %s (with the cookie banner open)', async (url) => {
    const { page, close } = await openPage(browser, { bypassCSP: true });
    await page.goto(`${site.baseUrl}${url}`);
    await page.waitForLoadState('networkidle');
    expect(await violations(page)).toEqual([]);
    await close();
  });

  it('finds no violations in the cookie panel and on the validation errors', async () => {
    const { page, close } = await openPage(browser, { bypassCSP: true, viewport: { width: 360, height: 740 } });
    await page.goto(`${site.baseUrl}/`);
    await page.getByRole('button', { name: cookieTexts.customize }).click();
    await page.getByRole('dialog').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('form#richiedi-guida').getByRole('button', { name: /guida/i }).click();
    await page.waitForTimeout(300);
    expect(await violations(page)).toEqual([]);
    await close();
  });
});
