import { beforeAll, describe, expect, it } from 'vitest';
import { smsBudgetMessages } from '@guida/shared/messages';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'budget';
const PASSWORD = 'Corretta!Cavallo42';

let heldLeadIds: number[];
const e2e = useSiteAndBrowser();
beforeAll(async () => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
  // Two SMS an SMS budget held (block 393801).
  heldLeadIds = [];
  for (const telefono of ['+393801000001', '+393801000002']) {
    const lead = await insertLead(e2e.site.db, { telefono });
    await e2e.site.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'held' });
    heldLeadIds.push(lead.leadId);
  }
});

describe('SMS budget alert in the admin', () => {
  it('shows a red alert with the held SMS on every tab, and releases them after a confirmation', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser);
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);

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

    const rows = await e2e.site.db('sms_messages').whereIn('lead_id', heldLeadIds);
    expect(rows.map((row) => [row.status, row.budget_exempt])).toEqual([
      ['pending', true],
      ['pending', true],
    ]);
    // The login page asks for the session first: 401 before signing in.
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  });
});
