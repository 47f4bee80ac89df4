import { beforeAll, describe, expect, it } from 'vitest';
import { insertLead } from '@guida/testing/lead-fixture';
import { createAdmin, signInAsAdmin } from './admin-harness';
import { axeViolations } from './axe';
import { openPage, useSiteAndBrowser } from './site-harness';

const USERNAME = 'costi';
const PASSWORD = 'Corretta!Cavallo42';
const PHONE_WIDTH = 375;

const e2e = useSiteAndBrowser();

/** Today in Italy, as AAAA-MM-GG and as GG/MM/AAAA. */
const isoToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
const italianToday = isoToday.split('-').reverse().join('/');

/** Text as read, with Intl's no-break spaces ("1.000,00\u00a0€") as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');

const csv = (text: string) => ({ name: 'spesa.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

beforeAll(async () => {
  createAdmin(e2e.site, USERNAME, PASSWORD);
  // A minute ago: today's lead of the campaign, its SMS delivered and priced by Twilio.
  const { leadId } = await insertLead(e2e.site.db, {
    created_at: new Date(Date.now() - 60_000),
    utm_source: 'google',
    utm_campaign: 'autunno',
    reachable_at: new Date(),
  });
  const [sms] = await e2e.site.db('sms_messages')
    .where({ lead_id: leadId })
    .update({ status: 'delivered', provider: 'twilio', provider_message_id: `SM${'a'.repeat(32)}` })
    .returning<{ id: number }[]>('id');
  await e2e.site.db('sms_prices').insert({
    sms_id: sms!.id,
    provider_message_id: `SM${'a'.repeat(32)}`,
    price: '0.07400',
    price_unit: 'EUR',
    fetched_at: new Date(),
  });
});

describe('the ad spend import (Costi)', () => {
  it('names the bad line of a refused file, imports a good one with its counts, and shows the costs on the overview', async () => {
    const { page, close, consoleErrors } = await openPage(e2e.browser, { viewport: { width: 1280, height: 900 } });
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Costi' }).click();
    const form = page.getByRole('form', { name: 'Importazione della spesa pubblicitaria' });
    const file = form.getByLabel('File CSV della spesa');

    // No file chosen: said at the field, nothing sent.
    await form.getByRole('button', { name: 'Importa' }).click();
    await expect.poll(() => form.getByText('Scegli il file CSV da importare.').count()).toBe(1);

    await file.setInputFiles(csv(`Data;Sorgente;Campagna;Importo\n${italianToday};google;autunno;10,00\n${italianToday};meta;autunno;12,3,4\n`));
    await form.getByRole('button', { name: 'Importa' }).click();
    const alert = form.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('non è stato importato nulla');
    expect(await alert.getByRole('listitem').allTextContents()).toEqual(['Riga 3: importo non valido («12,3,4»)']);
    expect(await e2e.site.db('ad_spend').count({ n: '*' }).first()).toEqual({ n: 0 });
    expect(await axeViolations(page)).toEqual([]);

    await file.setInputFiles(csv(`\uFEFFData;Sorgente;Campagna;Importo;Valuta\n${italianToday};google;autunno;1.000,00;EUR\n${italianToday};meta;autunno;€ 20;\n`));
    await form.getByRole('button', { name: 'Importa' }).click();
    const status = form.getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toBe(`Importate 2 righe di spesa dal ${italianToday} al ${italianToday}: 2 nuove, 0 sostituite.`);
    expect(await form.getByRole('alert').count()).toBe(0);
    const imported = page.getByRole('region', { name: 'Spesa pubblicitaria importata per giorno e campagna' });
    // Italian style groups thousands from five digits on (Intl, CLDR): 1000,00 €, 12.000,00 €.
    await expect.poll(async () => plain(await imported.getByRole('row', { name: /google/ }).textContent())).toContain('1000,00 €');
    expect(await axeViolations(page)).toEqual([]);

    // The same day and campaign again: its amount replaced; and spend of the whole source.
    await file.setInputFiles(csv(`data,utm_source,utm_campaign,importo\n${isoToday},google,autunno,900.5\n${isoToday},google,,50\n`));
    await form.getByRole('button', { name: 'Importa' }).click();
    await expect.poll(() => status.textContent()).toBe(`Importate 2 righe di spesa dal ${italianToday} al ${italianToday}: 1 nuove, 1 sostituite.`);
    await expect.poll(async () => plain(await imported.getByRole('row', { name: /google/ }).filter({ hasText: 'autunno' }).textContent())).toContain('900,50 €');

    // The overview: the lead, its SMS price and the spend, and what the lead cost.
    await page.getByRole('tab', { name: 'Panoramica' }).click();
    const costs = page.getByRole('region', { name: 'Lead, costi e costo per lead per campagna' });
    await expect
      .poll(async () => plain(await costs.getByRole('row', { name: /^google \/ autunno/ }).textContent()))
      .toBe('google / autunno110,074 €900,50 €900,57 €900,57 €');
    expect(plain(await costs.getByRole('row', { name: /^meta \/ autunno/ }).textContent())).toBe('meta / autunno00—20,00 €——');
    // Spend of the whole source is no campaign's: a row of its own, with all the source's leads and spend.
    expect(plain(await costs.getByRole('row', { name: /^google \/ \(intera sorgente\)/ }).textContent())).toBe(
      'google / (intera sorgente)110,074 €950,50 €950,57 €950,57 €',
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors.filter((message) => !/\b(400|401)\b/.test(message))).toEqual([]);
    await close();
  }, 60_000);

  it('fits a phone screen', async () => {
    const { page, close } = await openPage(e2e.browser, { viewport: { width: PHONE_WIDTH, height: 740 }, isMobile: true, hasTouch: true });
    await signInAsAdmin(page, e2e.site, USERNAME, PASSWORD);
    await page.getByRole('tab', { name: 'Costi' }).click();
    await page.getByRole('form', { name: 'Importazione della spesa pubblicitaria' }).waitFor();
    await page.getByRole('region', { name: 'Spesa pubblicitaria importata per giorno e campagna' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_WIDTH);
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});
