/**
 * Withdrawing the marketing consent in the browser (decision 048): the page behind the link
 * of every email to a lead, at phone and desktop sizes, and the admin's action in the lead
 * detail. axe finds nothing on either.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { marketingWithdrawalMessages, marketingWithdrawalPages as pages } from '@guida/shared/marketing-withdrawal';
import { insertLead, keyTestWithdrawalLink } from '@guida/testing/lead-fixture';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'revoche';
const PASSWORD = 'Corretta!Cavallo42';

const e2e = useSiteAndBrowser();
beforeAll(() => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
});

/** A lead and its withdrawal link, keyed as the worker does when it emails the lead. */
async function leadWithLink(values: Record<string, unknown>) {
  const lead = await insertLead(e2e.site.db, { marketing_consent: true, marketing_consent_version: '1.0', ...values });
  const token = await keyTestWithdrawalLink(e2e.site.db, lead.leadId);
  return { ...lead, url: `${e2e.site.baseUrl}/revoca-marketing/${token}` };
}

const withdrawnAt = async (leadId: number) =>
  (await e2e.site.db('ebook_requests').where({ id: leadId }).first()).marketing_consent_withdrawn_at as Date | null;

describe('the page behind the withdrawal link', () => {
  it.each([
    { width: 360, height: 740 },
    { width: 1280, height: 800 },
  ])('asks with one button, withdraws, then says it is already done (%o)', async (viewport) => {
    const lead = await leadWithLink({ email: `pagina.${viewport.width}@example.it`, telefono: `+39347000${viewport.width}1` });
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport });

    const opened = await page.goto(lead.url);
    expect(opened?.status()).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    await page.getByRole('heading', { level: 1, name: pages.confirmTitle }).waitFor();
    expect(await page.getByText(pages.confirmText).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    // Opening it withdrew nothing (a mail scanner opens every link).
    expect(await withdrawnAt(lead.leadId)).toBeNull();
    // Readable on a phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    const button = page.getByRole('button', { name: pages.confirmButton });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: pages.withdrawnTitle }).waitFor();
    expect(await page.getByText(pages.withdrawnText).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await withdrawnAt(lead.leadId)).toBeInstanceOf(Date);

    await page.goto(lead.url);
    await page.getByRole('heading', { level: 1, name: pages.alreadyTitle }).waitFor();
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('answers a link that is not ours with the Italian 404 page', async () => {
    const { page, close } = await openPage(e2e.browser, { allowConsoleErrors: /status of 404/ });
    const answer = await page.goto(`${e2e.site.baseUrl}/revoca-marketing/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: pages.invalidTitle }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});

describe('the admin withdraws on the person’s behalf', () => {
  it('confirms first, then shows the withdrawal, the suppression and the badge', async () => {
    const lead = await insertLead(e2e.site.db, {
      nome: 'Elena',
      cognome: 'Fabbri',
      email: 'elena.fabbri@example.it',
      telefono: '+393471239876',
      marketing_consent: true,
      marketing_consent_version: '1.0',
    });
    const { page, close, consoleErrors } = await openPage(e2e.browser);
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();
    const table = page.getByRole('region', { name: 'Tabella dei lead' });
    const row = table.getByRole('row').filter({ hasText: 'Elena Fabbri' });
    await row.waitFor();
    expect(await row.getByText('Marketing soppresso').count()).toBe(0);

    await table.getByRole('button', { name: 'Elena Fabbri' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('Né l’email né il telefono di questo lead sono nella lista di soppressione.');
    const action = dialog.getByRole('button', { name: 'Revoca il consenso marketing' });
    await action.click();
    const question = dialog.getByRole('group', { name: /^Revocare il consenso marketing di elena\.fabbri@example\.it e \+393471239876\?/ });
    await question.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Nothing happens before the confirmation.
    expect(await withdrawnAt(lead.leadId)).toBeNull();
    await question.getByRole('button', { name: 'Conferma' }).click();

    await expect.poll(() => page.getByText(marketingWithdrawalMessages.withdrawn).count()).toBeGreaterThan(0);
    await expect.poll(() => dialog.textContent()).toContain('Nella listaEmail e telefono');
    expect(await dialog.textContent()).toContain('Registratada un operatore');
    expect(await dialog.textContent()).toMatch(/Consenso marketing revocato il\d{2}\/\d{2}\/\d{2}, /);
    expect(await axeViolations(page)).toEqual([]);
    expect(await withdrawnAt(lead.leadId)).toBeInstanceOf(Date);
    expect(await e2e.site.db('admin_audit_log').where({ action: 'withdraw_marketing_consent', target_id: String(lead.leadId) })).toHaveLength(1);
    expect(await e2e.site.db('crm_deliveries').where({ lead_id: lead.leadId, event: 'lead.consent_withdrawn' })).toHaveLength(1);

    await page.keyboard.press('Escape');
    await expect.poll(() => row.getByText('Marketing soppresso').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    // The login page asks for the session first: 401 before signing in.
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  }, 60_000);
});
