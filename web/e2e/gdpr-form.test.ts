import { describe, expect, it } from 'vitest';
import { gdprFormTexts } from '@guida/shared/gdpr-messages';
import { validationMessages } from '@guida/shared/messages';
import { axeViolations } from './axe';
import { gotoInteractive, openPage, useSiteAndBrowser } from './site-harness';

const e2e = useSiteAndBrowser();

describe('the /gdpr request form', () => {
  it('shows the spec messages under the fields, tied to them for screen readers, without axe violations', async () => {
    const { page, consoleErrors, close } = await openPage(e2e.browser, { bypassCSP: true, viewport: { width: 360, height: 740 } });
    await gotoInteractive(page, `${e2e.site.baseUrl}/gdpr`);
    const form = page.locator('form#richiesta-gdpr');
    await form.getByRole('button', { name: gdprFormTexts.submit }).click();

    const email = form.getByLabel(gdprFormTexts.emailLabel, { exact: true });
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await email.getAttribute('aria-describedby'))!.split(' ');
    const descriptions = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(descriptions).toEqual([gdprFormTexts.emailHint, validationMessages.email]);
    const type = form.getByLabel(gdprFormTexts.typeLabel);
    expect(await type.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await type.getAttribute('aria-describedby')}"]`).textContent()).toBe(
      validationMessages.requestType,
    );
    expect(await axeViolations(page)).toEqual([]);

    await email.fill('non-valida@');
    await email.press('Tab');
    await form.getByRole('button', { name: gdprFormTexts.submit }).click();
    await expect.poll(() => form.getByText(validationMessages.email).count()).toBe(1);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('asks what to correct only for a rectification, also before the page is interactive', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { page, close } = await openPage(e2e.browser, { javaScriptEnabled });
      if (javaScriptEnabled) await gotoInteractive(page, `${e2e.site.baseUrl}/gdpr`);
      else await page.goto(`${e2e.site.baseUrl}/gdpr`);
      const form = page.locator('form#richiesta-gdpr');
      const details = form.getByLabel(gdprFormTexts.detailsLabel);
      expect(await details.isVisible()).toBe(false);
      await form.getByLabel(gdprFormTexts.typeLabel).selectOption({ label: 'Rettifica dei dati' });
      await expect.poll(() => details.isVisible()).toBe(true);
      await form.getByLabel(gdprFormTexts.typeLabel).selectOption({ label: 'Accesso ai dati' });
      await expect.poll(() => details.isVisible()).toBe(false);
      await close();
    }
  });

  it('offers the four rights with Italian labels and posts to the API without JavaScript', async () => {
    const { page, close } = await openPage(e2e.browser, { javaScriptEnabled: false });
    await page.goto(`${e2e.site.baseUrl}/gdpr`);
    const form = page.locator('form#richiesta-gdpr');
    expect(await form.getAttribute('action')).toBe('/api/gdpr/requests');
    expect(await form.getAttribute('method')).toBe('post');
    const options = await form.getByLabel(gdprFormTexts.typeLabel).locator('option').evaluateAll((nodes) =>
      nodes.map((node) => [(node as HTMLOptionElement).value, node.textContent]),
    );
    expect(options).toEqual([
      ['', gdprFormTexts.typePlaceholder],
      ['access', 'Accesso ai dati'],
      ['deletion', 'Cancellazione dei dati'],
      ['portability', 'Portabilità dei dati'],
      ['rectification', 'Rettifica dei dati'],
    ]);
    await close();
  });
});
