import { beforeAll, describe, expect, it } from 'vitest';
import { HERO_EXPERIMENTS, HERO_VARIANT_ATTRIBUTE } from '@guida/shared/experiments';
import { waitFor } from '@guida/testing/wait-for';
import { HERO_VARIANT_COPY } from '../app/content/hero-experiments';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { fillLeadForm, gotoInteractive, openPage, privacyCheckbox, useSiteAndBrowser } from './site-harness';

const USERNAME = 'esperimenti';
const PASSWORD = 'Corretta!Cavallo42';
const experiment = HERO_EXPERIMENTS[0]!;
const copy = HERO_VARIANT_COPY[experiment.id]!;
const labelOf = (variantId: string) => experiment.variants.find((variant) => variant.id === variantId)!.label;

/** Browsers told apart by their user agent (every test browser has the same address). */
const userAgent = (visitor: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 visitatore-${visitor}`;

const e2e = useSiteAndBrowser({}, { withWorker: true });
beforeAll(() => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
});

/** The variant a visitor is served, read from the page (the API counts the one of its visit session, decision 051). */
async function servedVariant(visitor: number) {
  const opened = await openPage(e2e.browser, { userAgent: userAgent(visitor), viewport: { width: 1280, height: 900 } });
  await gotoInteractive(opened.page, `${e2e.site.baseUrl}${experiment.path}`);
  const variant = await opened.page.locator(`[${HERO_VARIANT_ATTRIBUTE}]`).getAttribute(HERO_VARIANT_ATTRIBUTE);
  return { ...opened, variant: variant! };
}

describe('A/B experiment on a landing hero', () => {
  it('shows visitors different prerendered heroes, reports them per variant, and keeps the winner for all', async () => {
    // Visitors until two of them see different variants (a third of each, at random).
    const visitors: Awaited<ReturnType<typeof servedVariant>>[] = [];
    for (let visitor = 1; visitors.length < 2 && visitor <= 30; visitor += 1) {
      const opened = await servedVariant(visitor);
      if (visitors.some((seen) => seen.variant === opened.variant)) await opened.close();
      else visitors.push(opened);
    }
    expect(visitors).toHaveLength(2);

    for (const [index, { page, variant, consoleErrors, close }] of visitors.entries()) {
      await expect.poll(() => page.locator('h1').textContent()).toBe(copy[variant]!.title);
      // The same visitor gets the same variant again, with no cookie.
      await page.reload();
      expect(await page.locator(`[${HERO_VARIANT_ATTRIBUTE}]`).getAttribute(HERO_VARIANT_ATTRIBUTE)).toBe(variant);
      expect(await page.context().cookies()).toEqual([]);

      const telefono = `347 800 100${index}`;
      const form = await fillLeadForm(page, { nome: 'Sara', cognome: 'Conti', email: `sara${index}@example.it`, telefono });
      await privacyCheckbox(form).check();
      await form.getByRole('button', { name: copy[variant]!.submitLabel }).click();
      await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
      await page.getByRole('heading', { level: 1, name: /grazie/i }).waitFor();
      await page.goto('about:blank');
      expect(consoleErrors).toEqual([]);
      const lead = await e2e.site.db('ebook_requests').where('telefono', `+39347800100${index}`).first();
      expect(lead).toMatchObject({ landing_path: experiment.path, hero_variant: variant });
      await waitFor(async () => (await e2e.site.db('page_views').where({ path: experiment.path, hero_variant: variant }).first()) !== undefined);
      // The funnel's landing carries the variant too, so the funnel splits by it.
      await waitFor(
        async () =>
          (await e2e.site
            .db('conversion_funnel')
            .where({ step: 'landing', landing_path: experiment.path })
            .whereRaw("metadata->>'hero_variant' = ?", [variant])
            .first()) !== undefined,
      );
      await close();
    }

    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport: { width: 1280, height: 900 } });
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Esperimenti A/B' }).click();

    const table = page.getByRole('table', { name: `Risultati per variante: ${experiment.name}` });
    // Each lead's visitor, and those who only looked (the visitors opened until two variants showed).
    const percent = new Intl.NumberFormat('it-IT', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    for (const { variant } of visitors) {
      const row = table.getByRole('row', { name: new RegExp(`^${labelOf(variant)}`) });
      await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual([
        expect.stringMatching(/^\d+ \/ [\d.]+$/),
        '1',
        expect.stringMatching(/%$/),
        expect.stringMatching(/%$/),
        expect.stringMatching(/^(Controllo|da .* punti)$/),
        'In attesa del campione',
      ]);
      const [seen, , conversion] = await row.getByRole('cell').allTextContents();
      expect(conversion).toBe(percent.format(1 / Number.parseInt(seen!, 10)));
    }
    expect(await page.getByText(/^Non ancora significativo: servono [\d.]+ visitatori per variante/).count()).toBe(1);

    // The funnel and each lead say which variant they saw.
    await page.getByRole('tab', { name: 'Funnel' }).click();
    const bySplit = page.getByRole('table', { name: 'Conversione per pagina, variante e campagna' });
    for (const { variant } of visitors) {
      const row = bySplit.getByRole('row', { name: new RegExp(`${experiment.path}.*${labelOf(variant)}`) });
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('Diretto (nessuna campagna)');
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();
    await page.getByRole('button', { name: 'Sara Conti' }).first().click();
    await expect.poll(() => page.getByRole('dialog').textContent()).toMatch(new RegExp(`Variante A/B(${visitors.map(({ variant }) => labelOf(variant)).join('|')})`));
    await page.keyboard.press('Escape');
    // The tab lives in the address: React Router renders the change in a transition.
    await page.getByRole('tab', { name: 'Esperimenti A/B' }).click();
    await expect.poll(() => page.getByText(/servono [\d.]+ visitatori per variante/).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard: the action, then its confirmation (focused when it opens).
    const winner = visitors[1]!.variant;
    await page.getByRole('button', { name: `Tieni «${labelOf(winner)}»` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Conferma');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText(/fermato il .*: tutti i visitatori vedono/).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Tieni/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();

    // Every visitor now gets the winner, those who saw another variant included.
    for (let visitor = 1; visitor <= 6; visitor += 1) {
      const opened = await servedVariant(visitor);
      expect(opened.variant, `visitatore ${visitor}`).toBe(winner);
      await opened.close();
    }
  }, 120_000);
});
