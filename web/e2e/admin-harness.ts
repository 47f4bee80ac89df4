import { spawnSync } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { testAuthenticator, type TestAuthenticator } from '@guida/testing/totp';

/** The value (dd) of a term (dt) inside `scope`: a figure of the admin's pages. */
export const figure = (scope: Page | Locator, label: string) =>
  scope.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

/** Where the admin signs in: a site of the harness, or any server of the built site. */
type AdminSite = { baseUrl: string };

/** An admin account made by the real command: the bundle that `npm run admin:create` runs. */
export function createAdmin(site: { databaseUrl: string }, username: string, password: string) {
  const created = spawnSync(process.execPath, ['api/dist/create-admin.js', '--username', username], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: site.databaseUrl, ADMIN_PASSWORD: password },
    encoding: 'utf8',
  });
  expect(created.stdout).toContain(`created admin "${username}"`);
}

/** Each admin's authenticator app, from the key their enrolment page showed, per site. */
const authenticators = new Map<string, TestAuthenticator>();
const appKey = (site: AdminSite, username: string) => `${site.baseUrl} ${username}`;

/** The authenticator `username` enrolled on `site` in this file; undefined before. */
export const authenticatorOf = (site: AdminSite, username: string) => authenticators.get(appKey(site, username));

export const ENROLMENT_TITLE = 'Attiva la verifica in due passaggi';
export const SECOND_FACTOR_TITLE = 'Verifica in due passaggi';
export const RECOVERY_CODES_TITLE = 'Verifica attivata: salva i codici di recupero';

/**
 * The key of the enrolment page, as an admin types it into an app that cannot scan
 * (shown in groups of four), kept as that admin's authenticator.
 */
export async function readEnrolmentKey(page: Page, site: AdminSite, username: string) {
  const shown = await page.getByRole('listitem').filter({ hasText: 'inserisci una chiave' }).locator('code').textContent();
  const app = testAuthenticator((shown ?? '').replace(/\s+/g, ''));
  authenticators.set(appKey(site, username), app);
  return app;
}

/**
 * After the password: the second factor as the admin gives it. On the first login, the
 * enrolment (the key read from the page, its first code, the recovery codes saved); later,
 * a new code of the app enrolled then.
 */
export async function passSecondFactor(page: Page, site: AdminSite, username: string) {
  const enrolment = page.getByRole('heading', { level: 1, name: ENROLMENT_TITLE });
  const verification = page.getByRole('heading', { level: 1, name: SECOND_FACTOR_TITLE, exact: true });
  await enrolment.or(verification).waitFor();
  if (await enrolment.isVisible()) {
    const app = await readEnrolmentKey(page, site, username);
    await page.getByLabel('Codice di 6 cifre').fill(await app.nextCode());
    await page.getByRole('button', { name: 'Conferma e continua' }).click();
    await page.getByRole('heading', { level: 1, name: RECOVERY_CODES_TITLE }).waitFor();
    await page.getByRole('button', { name: 'Ho salvato i codici: vai alla dashboard' }).click();
    return;
  }
  const app = authenticatorOf(site, username);
  if (!app) throw new Error(`no authenticator for ${username}: sign in once in this file to enrol`);
  await page.getByLabel('Codice di 6 cifre').fill(await app.nextCode());
  await page.getByRole('button', { name: 'Verifica e accedi' }).click();
}

/** Signs in on the login page, password then second factor, and waits for the dashboard. */
export async function signInAsAdmin(page: Page, site: AdminSite, username: string, password: string) {
  await page.goto(`${site.baseUrl}/admin/login`);
  await page.getByLabel('Nome utente').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await passSecondFactor(page, site, username);
  await page.waitForURL(/\/admin(-|\/)dashboard/);
}
