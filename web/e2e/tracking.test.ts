import { describe, expect, it } from 'vitest';
import { waitFor } from '@guida/testing/wait-for';
import { thankYouItaly } from '../app/content/thank-you';
import { fillLeadForm, gotoInteractive, openPage, privacyCheckbox, useSiteAndBrowser } from './site-harness';

const e2e = useSiteAndBrowser({}, { withWorker: true });

describe('first-party analytics, browser to database', () => {
  it('records page views, the funnel, form actions and section time of a visit', async () => {
    const { page, close } = await openPage(e2e.browser, { viewport: { width: 1280, height: 900 } });
    await gotoInteractive(page, `${e2e.site.baseUrl}/?utm_source=newsletter&utm_campaign=inverno`);
    // The session the API issued the tab once the page was idle (decision 051).
    const visit = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('guida-visit') ?? 'null') as { sessionId: string; token: string } | null);
    await expect.poll(visit).not.toBeNull();
    const { sessionId, token } = (await visit())!;
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);

    const form = await fillLeadForm(page, { nome: 'Elisa', cognome: 'Marchi', email: 'elisa@example.it', telefono: '347 900 1234' });
    await privacyCheckbox(form).check();
    await form.getByRole('button', { name: /guida/i }).click();
    await page.waitForURL(`${e2e.site.baseUrl}/grazie-italia`);
    // The address changes before React commits the new page (and its page view effect): on
    // a loaded machine, leaving at once would leave before the thank-you page ever showed.
    await page.getByRole('heading', { level: 1, name: thankYouItaly({ sender: null, linkDays: 30, heldEmailMinutes: 10 }).heading }).waitFor();
    // Leaving the site sends what is still queued (sendBeacon on page hide). The context
    // stays open until it is stored: closing it could cancel a beacon not yet on the wire.
    await page.goto('about:blank');

    const stored = () =>
      Promise.all([
        e2e.site.db('page_views').where({ session_id: sessionId }).orderBy('timestamp').pluck('path'),
        e2e.site.db('conversion_funnel').where({ session_id: sessionId }).pluck('step'),
        e2e.site.db('form_interactions').where({ session_id: sessionId }).pluck('action'),
        e2e.site.db('section_views').where({ session_id: sessionId }).pluck('section'),
      ]);
    // Generous: with the whole suite running on two cores the worker can lag behind.
    let last: Awaited<ReturnType<typeof stored>> | undefined;
    const [views, steps, actions, sections] = await waitFor(
      async () => {
        const result = (last = await stored());
        return result[0].length >= 2 && result[1].includes('success') && result[2].includes('page_exit') && result;
      },
      { timeoutMs: 45_000, what: 'the visit to be stored' },
    ).catch((error: Error) => {
      throw new Error(`${error.message}; stored so far: ${JSON.stringify(last)}`);
    });
    await close();
    expect(views).toEqual(['/', '/grazie-italia']);
    expect(new Set(steps)).toEqual(new Set(['landing', 'form_view', 'form_start', 'form_submit', 'success']));
    expect(actions).toEqual(expect.arrayContaining(['view_form', 'start_typing', 'submit_attempt', 'submit_success', 'page_exit']));
    expect(sections).toContain('hero');

    const landing = await e2e.site.db('conversion_funnel').where({ session_id: sessionId, step: 'landing' }).first();
    expect(landing).toMatchObject({ landing_path: '/', utm_source: 'newsletter' });
    expect(landing.metadata).toMatchObject({ utm_campaign: 'inverno' });
    const firstView = await e2e.site.db('page_views').where({ session_id: sessionId, path: '/' }).first();
    expect(firstView).toMatchObject({ device: 'Desktop', browser: 'Chrome', os: 'Linux', language: 'it-IT', screen_resolution: '1280x900' });
    expect(firstView.ip_address).toMatch(/^127\.0\.0\.0$|::$/);
    const typing = await e2e.site.db('form_interactions').where({ session_id: sessionId, action: 'start_typing' }).pluck('field_name');
    expect(typing).toEqual(expect.arrayContaining(['nome', 'cognome', 'email', 'telefono']));
  }, 90_000);

  it('records the page view and the landing of a visitor who leaves before the page is idle', async () => {
    const { page, close } = await openPage(e2e.browser);
    // The browser never reports an idle moment: what waits for one is recorded on the exit.
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    await gotoInteractive(page, `${e2e.site.baseUrl}/educazione-investimenti`);
    // No idle moment, no visit session: the events leave under an id of the tab's own.
    expect(await page.evaluate(() => [sessionStorage.getItem('guida-visit'), sessionStorage.getItem('guida-analytics-session')])).toEqual([null, null]);
    await page.goto('about:blank');
    const [viewSession] = await waitFor(
      async () => {
        const sessions: string[] = await e2e.site.db('page_views').where({ path: '/educazione-investimenti' }).pluck('session_id');
        return sessions.length > 0 && sessions;
      },
      { timeoutMs: 45_000, what: 'the page view to be stored' },
    );
    const landings = await waitFor(
      async () => {
        const paths: string[] = await e2e.site.db('conversion_funnel').where({ session_id: viewSession, step: 'landing' }).pluck('landing_path');
        return paths.length > 0 && paths;
      },
      { timeoutMs: 45_000, what: 'the landing to be stored' },
    );
    expect(landings).toEqual(['/educazione-investimenti']);
    await close();
  }, 90_000);
});
