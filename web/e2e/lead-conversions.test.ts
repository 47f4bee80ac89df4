/**
 * The Meta Conversions API end to end (decision 061): a visitor from a Meta ad who accepts
 * the marketing cookies sends the form; the bundled worker posts the Lead event to a
 * Graph-compatible server on 127.0.0.1, which checks it as Meta documents it; the admin
 * sees the upload and Meta's answer in the lead's detail, and the privacy notice names
 * the recipients. axe finds nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieTexts } from '@guida/shared/messages';
import { startFakeGraph, type FakeGraph } from '@guida/testing/fake-graph-server';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { fillLeadForm, launchChromium, openPage, privacyCheckbox, startSite, type Site } from './site-harness';

const USERNAME = 'conversioni';
const PASSWORD = 'Corretta!Cavallo42';
const PIXEL = '1234567890123';
const TOKEN = 'EAAGm0PX4ZCpsBAKZBe2eZBtokenZA1234567890';
/** The login page asks for a session first: 401 while signed out. */
const SIGNED_OUT = /status of 401/;

let graph: FakeGraph;
let site: Site;
let browser: Browser;

beforeAll(async () => {
  graph = await startFakeGraph({ pixelId: PIXEL, accessToken: TOKEN });
  [site, browser] = await Promise.all([
    startSite({ META_PIXEL_ID: PIXEL, META_CAPI_ACCESS_TOKEN: TOKEN, META_GRAPH_API_URL: graph.url }, { withWorker: true }),
    launchChromium(),
  ]);
  createAdmin(site, USERNAME, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await graph?.close();
});

async function land(page: Page, path: string) {
  await page.goto(`${site.baseUrl}${path}`, { referer: 'https://l.facebook.com/' });
  await page.waitForSelector('html[data-hydrated="true"]');
}

describe('a conversion sent to Meta', () => {
  it('leaves for a visitor who accepted the marketing cookies, and shows in the lead’s detail', async () => {
    const { page, close, consoleErrors } = await openPage(browser, { viewport: { width: 1280, height: 800 }, allowConsoleErrors: SIGNED_OUT });
    await land(page, '/?utm_source=facebook&utm_medium=paid-social&fbclid=IwAR0-e2e');
    await page.getByRole('region', { name: cookieTexts.bannerTitle }).getByRole('button', { name: cookieTexts.acceptAll }).click();
    // With marketing accepted the click id is kept for the form (decision 049).
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('guida-attribution') ?? '')).toContain('IwAR0-e2e');
    const form = await fillLeadForm(page, { nome: 'Sara', cognome: 'Fontana', email: 'Sara.Fontana@example.it', telefono: '347 700 4321' });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${site.baseUrl}/grazie-italia`);

    const lead = await site.db('ebook_requests').where({ email: 'sara.fontana@example.it' }).first();
    expect(lead).toMatchObject({ ad_user_data: 'granted', fbclid: 'IwAR0-e2e' });
    const [request] = await graph.waitForRequests(1, `lead-${lead.id}`, 30_000);
    expect(request!.problems).toEqual([]);
    expect(request!.answered).toBe(200);
    expect(request!.body!.data).toEqual([
      expect.objectContaining({
        event_name: 'Lead',
        action_source: 'website',
        event_source_url: `${site.baseUrl}/`,
        user_data: expect.objectContaining({ fbc: `fb.1.${lead.created_at.getTime()}.IwAR0-e2e`, client_user_agent: expect.any(String) }),
      }),
    ]);
    expect(JSON.stringify(request!.body)).not.toMatch(/Sara|Fontana|3477004321/i);

    await signInAsAdmin(page, site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();
    const row = page.getByRole('region', { name: 'Tabella dei lead' }).getByRole('row', { name: /Sara Fontana/ });
    await row.getByRole('button', { name: 'Sara Fontana' }).click();
    const uploads = page.getByRole('dialog').getByRole('region', { name: 'Conversioni del lead inviate alle piattaforme pubblicitarie' });
    await expect.poll(() => uploads.textContent(), { timeout: 20_000 }).toContain('Consegnato');
    const text = await uploads.textContent();
    expect(text).toContain('Meta · Lead');
    expect(text).toMatch(/HTTP 200 · eventi ricevuti: 1 · fbtrace_id A/);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // The queue has its own card in the queues tab.
    await page.getByRole('tab', { name: 'Code' }).click();
    const queue = page.getByRole('region', { name: 'Coda Conversioni (Meta)' });
    await expect.poll(() => queue.textContent()).toMatch(/Completati[1-9]/);
    expect(await axeViolations(page)).toEqual([]);

    // The privacy notice names who receives what, and when.
    await land(page, '/privacy');
    const notice = await page.locator('main').textContent();
    expect(notice).toContain('Meta Platforms Ireland Ltd. (Facebook e Instagram) e Google Ireland Limited (Google Ads), solo se hai accettato i cookie di marketing');
    expect(notice).toContain('in forma pseudonimizzata');
    expect(notice).not.toContain('in forma cifrata');
    expect(await axeViolations(page)).toEqual([]);

    expect(consoleErrors).toEqual([]);
    await close();
  }, 90_000);
});
