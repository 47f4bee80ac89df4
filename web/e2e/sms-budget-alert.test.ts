import { beforeAll, describe, expect, it } from 'vitest';
import { SMS_TRANSITIONS } from '@guida/shared/deliveries/delivery-statuses';
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

  it("discards an attack's held SMS by network after a confirmation naming how many", async () => {
    // Two held SMS from a network under attack, one trusted held SMS from another.
    const held = async (telefono: string, network: string, trusted: boolean) => {
      const lead = await insertLead(e2e.site.db, { telefono, ip_address: network });
      await e2e.site.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: SMS_TRANSITIONS.hold.to, trusted });
      return lead.leadId;
    };
    const attack = [await held('+393881000001', '203.0.113.0', false), await held('+393891000002', '203.0.113.0', false)];
    const honest = await held('+393471000003', '198.51.100.0', true);
    const { page, close, consoleErrors } = await openPage(e2e.browser);
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);

    const alert = page.getByRole('alert', { name: smsBudgetMessages.alertTitle });
    await expect.poll(() => alert.textContent()).toContain(smsBudgetMessages.alertHeldTrusted(1));
    expect(await alert.textContent()).toContain(smsBudgetMessages.heldByNetwork);
    await alert.getByRole('button', { name: smsBudgetMessages.discardOpen }).click();
    // Nothing is counted, nor discarded, without a criterion.
    await alert.getByRole('button', { name: smsBudgetMessages.discardSearch }).click();
    await expect.poll(() => alert.textContent()).toContain(smsBudgetMessages.noCriteria);

    await alert.getByLabel(smsBudgetMessages.discardNetwork).fill('203.0.113.0/24');
    await alert.getByRole('button', { name: smsBudgetMessages.discardSearch }).click();
    await expect.poll(() => alert.textContent()).toContain(smsBudgetMessages.discardMatches(2, 0));
    expect(await axeViolations(page)).toEqual([]);
    await alert.getByRole('button', { name: smsBudgetMessages.discard(2) }).click();
    expect(await alert.textContent()).toContain(smsBudgetMessages.discardConfirm(2));
    await alert.getByRole('button', { name: 'Conferma' }).click();
    await expect.poll(() => page.getByText(smsBudgetMessages.discarded(2)).count()).toBeGreaterThan(0);

    const statuses = async (leadIds: number[]) =>
      (await e2e.site.db('sms_messages').whereIn('lead_id', leadIds).orderBy('lead_id').select('status')).map((row) => row.status as string);
    expect(await statuses(attack)).toEqual([SMS_TRANSITIONS.discard.to, SMS_TRANSITIONS.discard.to]);
    expect(await statuses([honest])).toEqual([SMS_TRANSITIONS.hold.to]);
    const audit = await e2e.site.db('admin_audit_log').where({ action: 'discard_held_sms' }).first();
    expect(audit.details).toEqual({ criteria: { network: '203.0.113.0' }, discarded: 2 });
    // The alert stays for the trusted SMS still held.
    await expect.poll(() => alert.textContent()).toContain(smsBudgetMessages.alertHeld(1));
    expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
    await close();
  });
});
