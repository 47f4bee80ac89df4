import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, figure, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

/** Verified leads (decision 059) on the overview, in the leads table and detail, and in the funnel. */

const USERNAME = 'verifiche';
const PASSWORD = 'Corretta!Cavallo59';
const MINUTE = 60_000;

const e2e = useSiteAndBrowser();

beforeAll(async () => {
  const { site } = e2e;
  createAdmin(site, USERNAME, PASSWORD);
  const now = Date.now();
  // With a term and a content: the overview's campaign rows split by all five UTM fields.
  const utm = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno', utm_term: 'etf', utm_content: 'video' };
  const etf = { landing_path: '/etf-vs-oro', ...utm, created_at: new Date(now - MINUTE) };
  const at = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE + 30_000);
  // Reachable (and from an ad click), engaged, both, neither. The times are what the
  // callback and the download set (their own tests drive those routes).
  await insertLead(site.db, { ...etf, nome: 'Rita', cognome: 'Raggiunta', gclid: 'Cj0-verified', ad_user_data: 'granted', reachable_at: at(1) });
  await insertLead(site.db, { ...etf, nome: 'Carlo', cognome: 'Coinvolto', engaged_at: at(1) });
  await insertLead(site.db, { ...etf, nome: 'Vera', cognome: 'Verificata', reachable_at: at(1), engaged_at: at(1) });
  await insertLead(site.db, { ...etf, nome: 'Nino', cognome: 'Nessuno' });
  await site.db('conversion_funnel').insert(
    ['a', 'b', 'c', 'd'].map((session) => ({
      event_id: randomUUID(),
      session_id: session,
      step: 'landing',
      metadata: { path: '/etf-vs-oro', ...utm },
      timestamp: new Date(now - 2 * MINUTE),
    })),
  );
});

/** A signed-in admin's page on a desktop screen; `done()` checks it is accessible and error-free, then closes it. */
async function adminPage() {
  const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport: { width: 1280, height: 800 } });
  await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
  return {
    page,
    async done() {
      expect(await axeViolations(page)).toEqual([]);
      expect(consoleErrors.filter((message) => !/401/.test(message))).toEqual([]);
      await close();
    },
  };
}

describe('verified leads in the admin', () => {
  it('shows reachable, engaged and verified leads with their rates on the overview', async () => {
    const { page, done } = await adminPage();
    const verified = page.getByRole('region', { name: 'Lead verificati — Ultimi 7 giorni' });
    await expect.poll(() => figure(verified, 'Lead nel periodo').textContent()).toBe('4');
    expect(await figure(verified, 'Raggiungibili (SMS consegnato)').textContent()).toBe('250,0%');
    expect(await figure(verified, 'Coinvolti (guida aperta)').textContent()).toBe('250,0%');
    expect(await figure(verified, 'Verificati').textContent()).toBe('375,0%');

    const byClick = page.getByRole('region', { name: 'Lead verificati con e senza clic su un annuncio' });
    expect(await byClick.getByRole('row', { name: 'Da clic su un annuncio' }).textContent()).toBe(
      'Da clic su un annuncio11 (100,0%)0 (0,0%)1 (100,0%)',
    );
    expect(await byClick.getByRole('row', { name: 'Senza clic su un annuncio' }).textContent()).toBe(
      'Senza clic su un annuncio31 (33,3%)2 (66,7%)2 (66,7%)',
    );

    const pages = page.getByRole('region', { name: 'Visitatori, lead e conversione per pagina di atterraggio' });
    expect(await pages.getByRole('columnheader').allTextContents()).toEqual([
      'Pagina',
      'Visitatori',
      'Lead',
      'Conversione',
      'Raggiungibili (SMS consegnato)',
      'Coinvolti (guida aperta)',
      'Verificati',
    ]);
    expect(await pages.getByRole('row', { name: /\/etf-vs-oro/ }).textContent()).toBe('/etf-vs-oro44100,0%2 (50,0%)2 (50,0%)3 (75,0%)');
    const campaigns = page.getByRole('region', { name: 'Visitatori, lead e conversione per campagna (tutti i campi UTM)' });
    expect(await campaigns.getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining(['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'Verificati']),
    );
    expect(await campaigns.getByRole('row', { name: /autunno/ }).textContent()).toBe('googlecpcautunnoetfvideo44100,0%2 (50,0%)2 (50,0%)3 (75,0%)');
    await done();
  }, 60_000);

  it('filters the leads by verification, keeps the filter in the address, and shows both times in the detail', async () => {
    const { page, done } = await adminPage();
    await page.getByRole('tab', { name: 'Lead', exact: true }).click();
    const table = page.getByRole('region', { name: 'Tabella dei lead' });
    await expect.poll(() => table.getByRole('row').count()).toBe(5);
    expect(await table.getByRole('row', { name: /Nino Nessuno/ }).getByText('Non verificato').count()).toBe(1);
    expect(await table.getByRole('row', { name: /Vera Verificata/ }).textContent()).toMatch(/SMS consegnato il .*Guida aperta il /);

    await page.getByLabel('Verificato', { exact: true }).selectOption('no');
    await page.getByRole('button', { name: 'Applica filtri' }).click();
    const applied = () => new URL(page.url()).searchParams;
    await expect.poll(() => applied().get('verified')).toBe('no');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).textContent()).toContain('Nino Nessuno');

    await page.getByLabel('Verificato', { exact: true }).selectOption('');
    await page.getByLabel('Guida aperta', { exact: true }).selectOption('si');
    await page.getByRole('button', { name: 'Applica filtri' }).click();
    await expect.poll(() => applied().get('engaged')).toBe('si');
    await page.reload();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await page.getByLabel('Guida aperta', { exact: true }).inputValue()).toBe('si');
    expect(await axeViolations(page)).toEqual([]);

    await table.getByRole('button', { name: 'Carlo Coinvolto' }).click();
    const dialog = page.getByRole('dialog');
    const verification = dialog.getByRole('region', { name: 'Verifica (SMS consegnato o guida aperta)' });
    await expect.poll(() => figure(verification, 'Verificato').textContent()).toMatch(/^Sì, dal \d{2}\/\d{2}\/\d{2}, \d{2}:\d{2}:\d{2}$/);
    expect(await figure(verification, 'SMS consegnato il (raggiungibile)').textContent()).toBe('—');
    expect(await figure(verification, 'Guida aperta il (coinvolto)').textContent()).toMatch(/^\d{2}\/\d{2}\/\d{2}, /);
    await done();
  }, 60_000);

  it('adds "SMS consegnato" and "Guida aperta" to the funnel after the request', async () => {
    const { page, done } = await adminPage();
    await page.getByRole('tab', { name: 'Funnel' }).click();
    const chart = page.getByRole('img', { name: /^Totali del funnel/ });
    await expect.poll(() => chart.getAttribute('aria-label')).toMatch(/Richiesta riuscita 0 \(0,0%\), SMS consegnato 2 \(50,0%\), Guida aperta 2 \(50,0%\)\.$/);
    const bySplit = page.getByRole('table', { name: 'Conversione per pagina, variante e campagna' });
    expect(await bySplit.getByRole('row', { name: /etf-vs-oro/ }).getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      expect.any(String),
      '4',
      '0',
      '0',
      '0,0%',
      '2',
      '2',
    ]);
    await done();
  }, 60_000);
});
