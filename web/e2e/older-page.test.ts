import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoInteractive, openPage, useBrowser, withSite } from './site-harness';

const e2e = useBrowser();

const countdown = (page: Page) => page.getByRole('complementary', { name: 'Offerta Limitata' });
const secondsShown = async (page: Page) => {
  const [minutes, seconds] = (await countdown(page).getByRole('timer').textContent())!.split(':').map(Number);
  return minutes! * 60 + seconds!;
};

describe('the older trading page', () => {
  it('has a dismissible red risk banner, the guide preview, the claims, and a button to the form', async () => {
    await withSite({}, async (site) => {
      const { page, consoleErrors, close } = await openPage(e2e.browser);
      await gotoInteractive(page, `${site.baseUrl}/trading-old`);
      const risk = page.getByRole('note').filter({ hasText: 'Avvertenza di rischio' });
      expect(await risk.isVisible()).toBe(true);
      // Past the full warning, a line fixed at the top keeps it in view.
      const line = page.locator('[data-risk-line]');
      expect(await line.isVisible()).toBe(false);
      await page.getByRole('region', { name: 'Cosa trovi nella guida' }).scrollIntoViewIfNeeded();
      await expect.poll(() => line.isVisible()).toBe(true);
      expect(await line.evaluate((node) => [getComputedStyle(node).position, node.getBoundingClientRect().top])).toEqual(['fixed', 0]);
      expect(await line.textContent()).toContain('il 74-89% dei conti CFD al dettaglio perde denaro');
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await expect.poll(() => line.isVisible()).toBe(false);
      await risk.getByRole('button', { name: 'Chiudi l’avviso di rischio' }).click();
      expect(await risk.count()).toBe(0);
      expect(await line.count()).toBe(0);

      const chapters = [...readFileSync(new URL('../../guides/content/general.md', import.meta.url), 'utf8').matchAll(/^## (.+)$/gm)].map(
        (match) => match[1]!.trim(),
      );
      const preview = page.getByRole('region', { name: 'Cosa trovi nella guida' });
      expect(await preview.getByRole('listitem').allTextContents()).toEqual(chapters.map((chapter, index) => `${index + 1}.${chapter}`));
      expect(await page.getByRole('region', { name: 'La guida in breve' }).getByRole('listitem').count()).toBe(4);
      // No testimonials are configured, so none are shown.
      expect(await page.getByRole('heading', { name: 'Cosa dicono i lettori' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Voglio la guida gratuita' }).click();
      const form = page.locator('form#richiedi-guida');
      await expect.poll(() => form.evaluate((node) => {
        const box = node.getBoundingClientRect();
        return box.top >= -1 && box.top < window.innerHeight;
      })).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('given-name');
      // No deadline configured: no countdown.
      expect(await countdown(page).count()).toBe(0);
      expect(consoleErrors).toEqual([]);
      await close();
    });
  });

  it('counts down to the configured deadline, the same after a reload', async () => {
    const endsAt = new Date(Date.now() + 20 * 60_000).toISOString();
    await withSite({ OFFER_ENDS_AT: endsAt }, async (site) => {
      const { page, close } = await openPage(e2e.browser);
      await gotoInteractive(page, `${site.baseUrl}/trading-old`);
      await expect.poll(() => countdown(page).count()).toBe(1);
      expect(await countdown(page).textContent()).toContain('Questa opportunità scade tra:');
      const before = await secondsShown(page);
      expect(Math.abs(before - (Date.parse(endsAt) - Date.now()) / 1000)).toBeLessThan(3);
      await expect.poll(() => secondsShown(page), { timeout: 10_000 }).toBeLessThanOrEqual(before - 2);
      await page.reload();
      await expect.poll(() => countdown(page).count()).toBe(1);
      const after = await secondsShown(page);
      expect(Math.abs(after - (Date.parse(endsAt) - Date.now()) / 1000)).toBeLessThan(3);
      expect(await countdown(page).textContent()).not.toContain('ULTIMI MINUTI');
      await close();
    });
  });

  it('turns urgent in the last five minutes', async () => {
    await withSite({ OFFER_ENDS_AT: new Date(Date.now() + 4 * 60_000).toISOString() }, async (site) => {
      const { page, close } = await openPage(e2e.browser);
      await gotoInteractive(page, `${site.baseUrl}/trading-old`);
      await expect.poll(() => countdown(page).textContent()).toContain('ULTIMI MINUTI! Non perdere questa opportunità!');
      await close();
    });
  });
});
