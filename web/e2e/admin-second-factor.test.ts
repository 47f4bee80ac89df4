import type { Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '@guida/shared/messages';
import { authenticatorCode } from '@guida/testing/totp';
import {
  authenticatorOf,
  createAdmin,
  ENROLMENT_TITLE,
  readEnrolmentKey,
  RECOVERY_CODES_TITLE,
  SECOND_FACTOR_TITLE,
} from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'verifica';
const PASSWORD = 'una frase lunga da ricordare';

const e2e = useSiteAndBrowser();
beforeAll(() => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
});

describe('the admin’s second factor in the browser', () => {
  it('enrols at the first login with the QR code, then signs in with a code of the app and once with a recovery code', async () => {
    // 401: the login page's question for a session, and the wrong code below.
    const { page, close, consoleErrors } = await openPage(e2e.browser, { allowConsoleErrors: /status of 401/ });
    const signInWithPassword = async () => {
      await page.goto(`${e2e.site.baseUrl}/admin/login`);
      await page.getByLabel('Nome utente').fill(USERNAME);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Accedi' }).click();
    };
    const dashboard = /\/admin(-|\/)dashboard/;

    // First login: the password opens no dashboard, only the enrolment.
    await signInWithPassword();
    await page.getByRole('heading', { level: 1, name: ENROLMENT_TITLE }).waitFor();
    expect(page.url()).not.toMatch(dashboard);
    // The QR code is an image the API drew (an SVG data: URL, as the CSP allows), shown.
    const qr = page.getByRole('img', { name: /Codice QR/ });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    expect(await qr.evaluate((image: HTMLImageElement) => image.getBoundingClientRect().width)).toBeGreaterThanOrEqual(200);
    expect(await axeViolations(page)).toEqual([]);

    const app = await readEnrolmentKey(page, e2e.site, USERNAME);
    expect(app.secret).toMatch(/^[A-Z2-7]{32}$/);
    const code = page.getByLabel('Codice di 6 cifre');
    // Not the app's code: it confirms nothing.
    const wrong = String((Number(authenticatorCode(app.secret, Date.now())) + 500_000) % 1_000_000).padStart(6, '0');
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Conferma e continua' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringContaining(adminMessages.wrongCode));
    await code.fill(await app.nextCode());
    await page.getByRole('button', { name: 'Conferma e continua' }).click();

    // The ten recovery codes, shown this once, before the dashboard.
    await page.getByRole('heading', { level: 1, name: RECOVERY_CODES_TITLE }).waitFor();
    const recoveryCodes = await page.getByRole('list', { name: 'Codici di recupero' }).getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const recoveryCode of recoveryCodes) expect(recoveryCode).toMatch(/^[a-z2-7]{6}(-[a-z2-7]{6}){3}$/);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Ho salvato i codici: vai alla dashboard' }).click();
    await page.waitForURL(dashboard);

    // Left alone, the dashboard's requests go marked as polls, which keep no session open
    // (ADMIN_IDLE_MINUTES); a click is the admin's own, and the request it leads to is not.
    const adminGet = (request: Request) => request.method() === 'GET' && new URL(request.url()).pathname.startsWith('/api/admin/');
    const poll = await page.waitForRequest((request) => adminGet(request) && request.headers()['x-admin-background'] !== undefined);
    expect(poll.headers()['x-admin-background']).toBe('1');
    await Promise.all([
      page.waitForRequest((request) => adminGet(request) && request.headers()['x-admin-background'] === undefined),
      page.getByRole('tab', { name: 'Sicurezza' }).click(),
    ]);
    await expect.poll(() => page.getByRole('tabpanel').textContent()).toContain('Codici di recupero ancora validi: 10 su 10.');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Esci' }).click();
    await page.getByLabel('Nome utente').waitFor();

    // A later login: the password, then a new code of the app.
    await signInWithPassword();
    await page.getByRole('heading', { level: 1, name: SECOND_FACTOR_TITLE, exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Codice di 6 cifre').fill(await authenticatorOf(e2e.site, USERNAME)!.nextCode());
    await page.getByRole('button', { name: 'Verifica e accedi' }).click();
    await page.waitForURL(dashboard);
    await page.getByRole('button', { name: 'Esci' }).click();
    await page.getByLabel('Nome utente').waitFor();

    // Without the phone: a recovery code, once.
    await signInWithPassword();
    await page.getByRole('button', { name: 'Non hai il telefono? Usa un codice di recupero' }).click();
    await page.getByLabel('Codice di recupero').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verifica e accedi' }).click();
    await page.waitForURL(dashboard);
    await expect.poll(() => page.getByText('Codice di recupero usato: ne restano 9.').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Esci' }).click();
    await page.getByLabel('Nome utente').waitFor();
    await signInWithPassword();
    await page.getByRole('button', { name: 'Non hai il telefono? Usa un codice di recupero' }).click();
    await page.getByLabel('Codice di recupero').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verifica e accedi' }).click();
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringContaining(adminMessages.wrongCode));
    expect(page.url()).not.toMatch(dashboard);

    const actions = await e2e.site.db('admin_audit_log').where({ username: USERNAME }).orderBy('id').pluck('action');
    expect(actions.filter((action) => action !== 'logout')).toEqual([
      'login_failure',
      'enrol_second_factor',
      'login_success',
      'login_success',
      'use_recovery_code',
      'login_success',
      'login_failure',
    ]);
    expect(consoleErrors).toEqual([]);
    await close();
  }, 90_000);
});
