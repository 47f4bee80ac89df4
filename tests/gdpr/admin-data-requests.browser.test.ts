/**
 * The admin's data-requests panel in Chromium, against the real API (with the data-rights
 * routes mounted) serving the built site: process a rectification after correcting the
 * lead, accept a deletion only after ticking the confirmation, look up a consent history.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdprAdminMessages } from '@guida/shared/gdpr-messages';
import { validationMessages } from '@guida/shared/messages';
import { emailHash } from '@guida/shared/server/personal-data-hash';
import { ADMIN_PASSWORD, createUser } from '../../api/src/testing/admin-session';
import { createTestApi, type TestApi } from '../../api/src/testing/test-api';
import { signInAsAdmin } from '../../web/e2e/admin-harness';
import { launchChromium, openPage } from '../../web/e2e/site-harness';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** As web/e2e/axe.ts (which needs the DOM types this project is not compiled with). */
async function axeViolations(page: Page) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** The name of the focused form field (this project has no DOM types, as above). */
const focusedName = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document.activeElement?.getAttribute('name'),
  );

let api: TestApi;
let server: Server;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  api = await createTestApi();
  server = api.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await api?.close();
});

async function confirmedRequest(email: string, requestType: string, details?: string) {
  const [row] = await api.db('gdpr_data_requests')
    .insert({
      email,
      email_hash: emailHash(email),
      request_type: requestType,
      status: 'confirmed',
      confirmed_at: api.db.fn.now(),
      request_data: details ? { details } : null,
    })
    .returning('id');
  return row.id as number;
}

describe('data requests in the admin dashboard', () => {
  it('corrects a lead and completes a rectification, accepts a deletion, shows a consent history', async () => {
    const email = 'francesca.neri@example.it';
    const lead = await request(api.app)
      .post('/api/ebook-request')
      .send({ nome: 'Frncesca', cognome: 'Neri', email, telefono: '+393471239876', gdprConsent: true });
    const leadId = lead.body.id as number;
    const rectification = await confirmedRequest(email, 'rectification', 'Mi chiamo Francesca');
    const deletion = await confirmedRequest('da.cancellare@example.it', 'deletion');
    const admin = await createUser(api);

    const { page, close, consoleErrors } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
      // The login page first asks for the session: 401 before signing in; a 400 answered below.
      allowConsoleErrors: /401|400/,
    });
    await signInAsAdmin(page, { baseUrl }, admin.username, ADMIN_PASSWORD);
    await page.getByRole('tab', { name: 'Consensi e richieste' }).click();

    const table = page.getByRole('region', { name: 'Elenco delle richieste ricevute' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);

    // Rectification: correct the lead, then complete.
    await table.getByRole('button', { name: `Gestisci n. ${rectification}` }).click();
    const panel = page.getByRole('region', { name: `Gestione della richiesta n. ${rectification}` });
    await expect.poll(() => panel.textContent()).toContain('Mi chiamo Francesca');
    const form = panel.getByRole('form', { name: `Correzione del lead n. ${leadId}` });
    await expect.poll(() => form.getByLabel('Nome', { exact: true }).inputValue()).toBe('Frncesca');
    expect(await axeViolations(page)).toEqual([]);
    // Checked with the API's schema first: not a mobile number, so nothing is sent.
    const phone = form.getByLabel('Cellulare');
    await phone.fill('0212345678');
    await form.getByRole('button', { name: 'Salva la correzione' }).click();
    await expect.poll(() => form.getByText(validationMessages.telefono, { exact: true }).count()).toBe(1);
    expect(await focusedName(page)).toBe('telefono');
    expect(await axeViolations(page)).toEqual([]);
    await phone.fill('+39 347 123 9876');
    await expect.poll(() => form.getByText(validationMessages.telefono, { exact: true }).count()).toBe(0);
    // What the API says about a field shows under it too (here an answer the same schema on
    // this side never lets happen, as a page older than the API could meet it).
    await page.route('**/api/admin/leads/*/rectify', (route) =>
      route.fulfill({ status: 400, json: { message: validationMessages.email, errors: { email: validationMessages.email } } }),
    );
    await form.getByRole('button', { name: 'Salva la correzione' }).click();
    await expect.poll(() => form.getByText(validationMessages.email, { exact: true }).count()).toBe(1);
    expect(await focusedName(page)).toBe('email');
    await page.unroute('**/api/admin/leads/*/rectify');
    expect((await api.db('ebook_requests').where({ id: leadId }).first()).nome).toBe('Frncesca');
    await form.getByLabel('Nome', { exact: true }).fill('Francesca');
    await form.getByRole('button', { name: 'Salva la correzione' }).click();
    await expect.poll(async () => (await api.db('ebook_requests').where({ id: leadId }).first()).nome).toBe('Francesca');
    await expect.poll(() => page.getByText(gdprAdminMessages.rectified).count()).toBeGreaterThan(0);
    expect(await api.db('crm_deliveries').where({ lead_id: leadId, event: 'lead.updated' })).toHaveLength(1);
    await panel.getByRole('button', { name: 'Completa la richiesta' }).click();
    await expect.poll(async () => (await api.db('gdpr_data_requests').where({ id: rectification }).first()).status).toBe(
      'processing',
    );
    await expect.poll(() => panel.count()).toBe(0);

    // Deletion: only after ticking that it is final.
    await table.getByRole('button', { name: `Gestisci n. ${deletion}` }).click();
    const deletionPanel = page.getByRole('region', { name: `Gestione della richiesta n. ${deletion}` });
    const erase = deletionPanel.getByRole('button', { name: 'Cancella i dati e completa' });
    expect(await erase.isDisabled()).toBe(true);
    await deletionPanel.getByLabel(/la cancellazione dei dati è definitiva/).check();
    await erase.click();
    await expect.poll(async () => (await api.db('gdpr_data_requests').where({ id: deletion }).first()).status).toBe(
      'processing',
    );
    expect((await api.db('gdpr_data_requests').where({ id: deletion }).first()).processed_by).toBe(admin.id);

    // Consent history of the address, once it is one.
    // By keyboard: the toast of the last action still covers the corner of the button.
    await page.getByLabel('Email della persona').fill('francesca.neri');
    await page.getByLabel('Email della persona').press('Enter');
    const lookup = page.getByRole('search', { name: 'Cerca lo storico dei consensi' });
    await expect.poll(() => lookup.getByText(validationMessages.email, { exact: true }).count()).toBe(1);
    await page.getByLabel('Email della persona').fill(email);
    await page.getByLabel('Email della persona').press('Enter');
    const consents = page.getByRole('region', { name: `Consensi registrati per ${email}` });
    await expect.poll(() => consents.textContent()).toContain('Privacy (invio della guida)');
    expect(await axeViolations(page)).toEqual([]);
    expect(await api.db('admin_audit_log').where({ action: 'view_consent_history', user_id: admin.id })).toHaveLength(1);

    expect(consoleErrors).toEqual([]);
    await close();
  });
});
