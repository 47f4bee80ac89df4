import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Site } from './site-harness';

/** An admin account made by the real command: the bundle that `npm run admin:create` runs. */
export function createAdmin(site: Site, username: string, password: string) {
  const created = spawnSync(process.execPath, ['api/dist/create-admin.js', '--username', username], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: site.databaseUrl, ADMIN_PASSWORD: password },
    encoding: 'utf8',
  });
  expect(created.stdout).toContain(`created admin "${username}"`);
}

/** Signs in on the login page and waits for the dashboard. */
export async function signInAsAdmin(page: Page, site: Site, username: string, password: string) {
  await page.goto(`${site.baseUrl}/admin/login`);
  await page.getByLabel('Nome utente').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await page.waitForURL(/\/admin(-|\/)dashboard/);
}
