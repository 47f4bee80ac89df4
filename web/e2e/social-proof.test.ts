import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieTexts } from '@guida/shared/messages';
import { gotoInteractive, launchChromium, openPage, startSite, type Site } from './site-harness';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function withSite(env: Record<string, string>, run: (site: Site) => Promise<void>) {
  const site = await startSite({ LIVE_STATS_CACHE_SECONDS: '0', ...env });
  try {
    await run(site);
  } finally {
    await site.stop();
  }
}

/** A page view sent to the API from another visitor's address: they are online. */
async function visitFrom(site: Site, ip: string, path: string) {
  const response = await fetch(`${site.baseUrl}/api/analytics/page-view`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify({ sessionId: `lettore-${ip.replace(/\W/g, '-')}-000000000`, path }),
  });
  expect(response.status).toBe(202);
}

/** Real activity: two other readers of /, one elsewhere, a Swiss SMS sent, a download. */
async function seed(site: Site) {
  const now = site.db.fn.now();
  await visitFrom(site, '203.0.113.1', '/');
  await visitFrom(site, '203.0.113.2', '/');
  await visitFrom(site, '2001:db8::1', '/privacy');
  const [lead] = await site.db('ebook_requests')
    .insert({ nome: 'Ada', cognome: 'Riva', email: 'ada@example.ch', telefono: '+41790000001', gdpr_consent: true, country: 'CH' })
    .returning('id');
  await site.db('sms_messages').insert({ lead_id: lead.id, status: 'delivered', sent_at: now });
  await site.db('guide_downloads').insert({ lead_id: lead.id });
}

describe('social proof', () => {
  it('shows only real figures and real recent deliveries, and the popup can be closed', async () => {
    await withSite({}, async (site) => {
      await seed(site);
      const { page, close } = await openPage(browser);
      await gotoInteractive(page, `${site.baseUrl}/`);
      const box = page.getByRole('complementary', { name: 'Attività sul sito' });
      await expect.poll(() => box.count()).toBe(1);
      expect(await box.getByRole('listitem').allTextContents()).toEqual([
        '3 visitatori online',
        '1 guida scaricata nelle ultime 2 ore',
        '1 altra persona sta leggendo questa pagina',
      ]);

      const popup = page.getByRole('complementary', { name: 'Attività recente' });
      expect(await popup.count()).toBe(0);
      await expect.poll(() => popup.count(), { timeout: 15_000 }).toBe(1);
      const text = await popup.textContent();
      expect(text).toContain('Guida inviata via SMS');
      expect(text).toContain('Un visitatore dalla Svizzera ha ricevuto la guida');
      expect(text).toContain('In tempo reale');
      expect(text).not.toContain('Ada');
      await popup.getByRole('button', { name: 'Chiudi le notifiche di attività' }).click();
      expect(await popup.count()).toBe(0);
      await close();
    });
  }, 60_000);

  it('shows nothing when nothing is true, and the real free places left', async () => {
    await withSite({ FREE_PLACES_TOTAL: '50' }, async (site) => {
      const { page, close } = await openPage(browser);
      await gotoInteractive(page, `${site.baseUrl}/trading-old`);
      const places = page.getByRole('complementary', { name: 'Posti gratuiti' });
      await expect.poll(() => places.count()).toBe(1);
      expect(await places.getByText(/^Posti gratuiti rimasti/).textContent()).toBe('Posti gratuiti rimasti: 50 su 50');
      // The widgets mount from the idle queue before the cookie check (queued after them) and
      // share the figures the places box shows: with the banner up and the page idle, a
      // visitor box would be there.
      await expect.poll(() => page.getByRole('region', { name: cookieTexts.bannerTitle }).count()).toBe(1);
      await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
      expect(await page.getByRole('complementary', { name: 'Attività sul sito' }).count()).toBe(0);
      await close();
    });
  });
});
