import { spawnSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsBudgetMessages } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { axeViolations } from './axe';
import { launchChromium, openPage, startSite, type Site } from './site-harness';

const USERNAME = 'budget';
const PASSWORD = 'Corretta!Cavallo42';

let site: Site;
let browser: Browser;
let heldLeadIds: number[];
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchChromium()]);
  const created = spawnSync(process.execPath, ['api/dist/create-admin.js', '--username', USERNAME], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: site.databaseUrl, ADMIN_PASSWORD: PASSWORD },
    encoding: 'utf8',
  });
  expect(created.stdout).toContain(`created admin "${USERNAME}"`);
  // Two SMS an SMS budget held (block 393801).
  heldLeadIds = [];
  for (const telefono of ['+393801000001', '+393801000002']) {
    const lead = await insertLead(site.db, { telefono });
    await site.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'held' });
    heldLeadIds.push(lead.leadId);
  }
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

describe('SMS budget alert in the admin', () => {
  it('shows a red alert with the held SMS on every tab, and releases them after a confirmation', async () => {
    const { page, close, consoleErrors } = await openPage(browser);
    await page.goto(`${site.baseUrl}/admin/login`);
    await page.getByLabel('Nome utente').fill(USERNAME);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await page.waitForURL(/\/admin(-|\/)dashboard/);

    const alert = page.getByRole('alert', { name: smsBudgetMessages.alertTitle });
    await expect.poll(() => alert.textContent()).toContain(smsBudgetMessages.alertHeld(2));
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Code' }).click();
    expect(await alert.isVisible()).toBe(true);

    await alert.getByRole('button', { name: smsBudgetMessages.release }).click();
    expect(await alert.textContent()).toContain(smsBudgetMessages.releaseConfirm(2));
    await alert.getByRole('button', { name: 'Conferma' }).click();
    await expect.poll(() => page.getByText(smsBudgetMessages.released(2)).count()).toBeGreaterThan(0);
    await expect.poll(() => alert.count()).toBe(0);

    const rows = await site.db('sms_messages').whereIn('lead_id', heldLeadIds);
    expect(rows.map((row) => [row.status, row.budget_exempt])).toEqual([
      ['pending', true],
      ['pending', true],
    ]);
    // The login page asks for the session first: 401 before signing in.
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  });
});
