import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, cookieTexts, notFoundPage } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, passSecondFactor, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { afterIdleWork } from './idle';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'operatrice';
const PASSWORD = 'Corretta!Cavallo42';

const e2e = useSiteAndBrowser();
beforeAll(async () => {
  // The account comes from the real command (the bundle that `npm run admin:create` runs).
  createAdmin(e2e.site, USERNAME, PASSWORD);

  const giulia = await insertLead(e2e.site.db, {
    nome: 'Giulia',
    cognome: 'Bianchi',
    email: 'giulia.bianchi@example.it',
    landing_path: '/',
    utm_source: 'google',
    marketing_consent: true,
    marketing_consent_version: '1.0',
  });
  await insertLead(e2e.site.db, { nome: 'Paolo', cognome: 'Gialli', email: 'paolo@example.ch', telefono: '+41791112233' });
  const sms = await e2e.site.db('sms_messages').where({ lead_id: giulia.leadId }).first();
  await e2e.site.db('sms_messages').where({ id: sms.id }).update({ status: 'failed', error_code: '30003', error_message: 'Unreachable destination handset' });
  await e2e.site.db('sms_events').insert([
    { sms_message_id: sms.id, status: 'retrying', error_code: '30003', error_message: 'Unreachable destination handset' },
    { sms_message_id: sms.id, status: 'failed', error_code: '30003', error_message: 'Unreachable destination handset' },
  ]);
});

describe('admin area in the browser', () => {
  it.each([
    { width: 360, height: 740 },
    { width: 1280, height: 800 },
  ])('answers unknown admin paths with 404 and shows no public cookie banner in the admin (%o)', async (viewport) => {
    // The browser reports the unknown path's 404 as a failed resource, and so the login
    // page's question for a session (401 when signed out).
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport, allowConsoleErrors: /status of (401|404)/ });
    const banner = page.getByRole('region', { name: cookieTexts.bannerTitle });

    const unknown = await page.goto(`${e2e.site.baseUrl}/admin/impostazioni`);
    expect(unknown?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: notFoundPage.title }).waitFor();
    // Not the admin: the public page it is shows the public banner to a visitor who has not chosen.
    await banner.waitFor();

    for (const path of ['/admin/login', '/admin-login']) {
      const login = await page.goto(`${e2e.site.baseUrl}${path}`);
      expect(login?.status(), path).toBe(200);
      await page.waitForSelector('html[data-hydrated="true"]');
      await page.getByLabel('Nome utente').waitFor();
      await afterIdleWork(page);
      expect(await banner.count(), path).toBe(0);
      expect(await page.getByRole('button', { name: 'Accedi' }).isVisible()).toBe(true);
    }
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('refuses a wrong password with the generic message and keeps the form usable', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { allowConsoleErrors: /401/ });
    await page.goto(`${e2e.site.baseUrl}/admin-login`);
    await page.getByLabel('Nome utente').fill(USERNAME);
    await page.getByLabel('Password').fill('Sbagliata!Password1');
    await page.getByRole('button', { name: 'Accedi' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringContaining(adminMessages.invalidCredentials));
    await expect.poll(() => page.getByLabel('Password').inputValue()).toBe('');
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('checks the login form with the shared schema: its messages under the empty fields, the first one focused, nothing sent', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { allowConsoleErrors: /401/ });
    const logins: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/login') logins.push(request.url());
    });
    await page.goto(`${e2e.site.baseUrl}/admin/login`);
    const username = page.getByLabel('Nome utente');
    const password = page.getByLabel('Password');
    const isFocused = (field: typeof username) => field.evaluate((element) => element === document.activeElement);
    await username.waitFor();

    await page.getByRole('button', { name: 'Accedi' }).click();
    await expect.poll(() => page.getByText('Inserisci il nome utente', { exact: true }).count()).toBe(1);
    expect(await page.getByText('Inserisci la password', { exact: true }).count()).toBe(1);
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    expect(await isFocused(username)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // After the first submit each field is checked as it changes; spaces are no name.
    await username.fill('   ');
    expect(await page.getByText('Inserisci il nome utente', { exact: true }).count()).toBe(1);
    await username.fill(USERNAME);
    await expect.poll(() => page.getByText('Inserisci il nome utente', { exact: true }).count()).toBe(0);
    expect(await page.getByText('Inserisci la password', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await expect.poll(() => isFocused(password)).toBe(true);
    expect(logins).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it('logs in, filters leads, opens one, exports CSV and logs out', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { acceptDownloads: true });
    await page.goto(`${e2e.site.baseUrl}/admin/login`);
    await page.getByLabel('Nome utente').waitFor();
    expect(await page.title()).toBe('Accesso amministratori');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Nome utente').fill(USERNAME);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await passSecondFactor(page, e2e.site, USERNAME);
    await page.waitForURL(/\/admin(-|\/)dashboard/);
    // The overview is the first screen; the leads are one tab away.
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();

    const table = page.getByRole('region', { name: 'Tabella dei lead' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await afterIdleWork(page);
    expect(await page.getByRole('region', { name: cookieTexts.bannerTitle }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Cerca').fill('bianchi');
    await page.getByRole('button', { name: 'Applica filtri' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(page.url()).toContain('q=bianchi');

    await table.getByRole('button', { name: 'Giulia Bianchi' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('Unreachable destination handset');
    expect(await dialog.textContent()).toContain('giulia.bianchi@example.it');
    // Each consent with the version of its own text.
    expect(await dialog.textContent()).toContain('Consenso marketing (facoltativo)SìVersione del testo marketing1.0');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Esporta CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    const rows = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('Giulia;Bianchi;giulia.bianchi@example.it');
    expect(rows[0]).toContain(';consenso_marketing;versione_consenso;versione_consenso_marketing;');
    expect(rows[1]).toContain(';sì;sì;1.0;1.0;');
    expect(await e2e.site.db('admin_audit_log').where({ action: 'export_leads_csv' }).first('details')).toEqual({
      details: { filters: ['q'] },
    });

    await page.getByRole('tab', { name: 'Code' }).click();
    await expect.poll(() => page.getByText('Invio SMS regolare').count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Funnel' }).click();
    await page.getByRole('tab', { name: 'Consensi e richieste' }).click();
    await expect.poll(() => page.getByRole('tabpanel').textContent()).toMatch(/consens/i);

    await page.getByRole('button', { name: 'Esci' }).click();
    await page.getByLabel('Nome utente').waitFor();
    // The session is gone on the server too: the dashboard sends back to the login.
    await page.goto(`${e2e.site.baseUrl}/admin/dashboard`);
    await page.getByLabel('Nome utente').waitFor();
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  }, 60_000);

  it('keeps the filters in the URL, checks them with the API schema and clears them', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser);
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();
    const table = page.getByRole('region', { name: 'Tabella dei lead' });
    const search = page.getByLabel('Cerca');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);

    await search.fill('  bianchi ');
    await page.getByLabel('Paese').selectOption('IT');
    await page.getByRole('button', { name: 'Applica filtri' }).click();
    const applied = () => new URL(page.url()).searchParams;
    await expect.poll(() => applied().get('q')).toBe('bianchi');
    expect(applied().get('country')).toBe('IT');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    // The form shows what was applied: the text as the schema trimmed it.
    await expect.poll(() => search.inputValue()).toBe('bianchi');

    // A reload (or a shared link) opens the same view, the fields filled in.
    await page.reload();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await search.inputValue()).toBe('bianchi');
    expect(await page.getByLabel('Paese').inputValue()).toBe('IT');

    // Longer than the API accepts: its message under the field, the field focused, the URL as it was.
    const before = page.url();
    await search.fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Applica filtri' }).click();
    await expect.poll(() => page.getByText(adminMessages.invalidFilter, { exact: true }).count()).toBe(1);
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await search.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(before);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Azzera filtri' }).click();
    await expect.poll(() => applied().has('q')).toBe(false);
    expect(applied().has('country')).toBe(false);
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await expect.poll(() => search.inputValue()).toBe('');
    expect(await page.getByText(adminMessages.invalidFilter, { exact: true }).count()).toBe(0);

    // Each tab keeps its own filters, under its own names.
    await page.getByRole('tab', { name: 'Funnel' }).click();
    const funnelFilters = page.getByRole('form', { name: 'Filtri del funnel' });
    await funnelFilters.getByLabel('utm_source').fill('google');
    await funnelFilters.getByRole('button', { name: 'Applica filtri' }).click();
    await expect.poll(() => applied().get('funnel_utmSource')).toBe('google');
    await page.reload();
    await expect.poll(() => funnelFilters.getByLabel('utm_source').inputValue()).toBe('google');
    expect(await page.getByRole('tab', { name: 'Funnel' }).getAttribute('aria-selected')).toBe('true');
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  }, 60_000);

  it('after too many attempts shows the Italian 429 message and how long to wait, with the button off meanwhile', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { allowConsoleErrors: /401|429/ });
    await page.goto(`${e2e.site.baseUrl}/admin/login`);
    // An unknown name: the other tests' account stays unlocked for this client.
    await page.getByLabel('Nome utente').fill('intruso');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await page.getByLabel('Password').fill(`Sbagliata!Password${attempt}`);
      await page.getByRole('button', { name: 'Accedi' }).click();
      await expect.poll(() => page.getByLabel('Password').inputValue()).toBe('');
    }
    await page.getByLabel('Password').fill('Sbagliata!Password9');
    await page.getByRole('button', { name: 'Accedi' }).click();
    await expect
      .poll(() => page.getByRole('alert').allTextContents())
      .toContainEqual(expect.stringMatching(new RegExp(`^${adminMessages.tooManyAttempts} Potrai riprovare tra \\d+ minuti\\.$`)));
    const waiting = page.getByRole('button', { name: /^Riprova tra \d+ minuti$/ });
    expect(await waiting.isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await close();
  }, 60_000);
});
