import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { abandonedFields, funnelByDay, timeOnPage } from './funnel.repo';

let database: TestDatabase;
const day = '2026-11-10';
const at = (time: string) => `${day}T${time}+01:00`;
const window = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') };

/** A session's funnel; its landing carries the campaign (`utm` a source, or the whole metadata). */
async function funnelSession(session: string, path: string, utm: string | null | Record<string, string>, steps: string[]) {
  const campaign = typeof utm === 'object' && utm !== null ? utm : { utm_source: utm };
  await database.db('conversion_funnel').insert(
    steps.map((step, index) => ({
      event_id: randomUUID(),
      session_id: session,
      step,
      // Later steps carry only the page, as the browser sends them.
      metadata: index === 0 ? { path, ...campaign } : { path },
      timestamp: at(`10:0${index}:00`),
    })),
  );
}

const NO_SPLIT = { utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '', hero_variant: '' };

beforeAll(async () => {
  database = await createTestDatabase();
  await funnelSession('s1', '/', 'google', ['landing', 'form_view', 'form_start', 'form_submit', 'success']);
  await funnelSession('s2', '/', 'google', ['landing', 'form_view', 'form_start']);
  await funnelSession('s3', '/', 'google', ['landing']);
  await funnelSession('s4', '/', null, ['landing', 'form_view']);
  // utm_source=direct in the address: no campaign, like s4 (and like a lead stored as 'direct').
  await funnelSession('s10', '/', 'direct', ['landing', 'form_view', 'form_start']);
  await funnelSession('s5', '/trading-old', 'facebook', ['landing', 'form_view', 'form_start', 'form_submit', 'success']);
  const adB = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno', utm_term: 'guida', utm_content: 'annuncio-b', hero_variant: 'b' };
  await funnelSession('s7', '/trading-automatico', adB, ['landing', 'form_view', 'form_start', 'form_submit', 'success']);
  await funnelSession('s8', '/trading-automatico', adB, ['landing']);
  await funnelSession('s9', '/trading-automatico', { ...adB, hero_variant: 'c' }, ['landing', 'form_view']);
  const exit = (session: string, path: string, seconds: number, field: string | null) => ({
    event_id: randomUUID(),
    session_id: session,
    action: 'page_exit',
    path,
    time_on_page: seconds,
    field_name: field,
    timestamp: at('10:30:00'),
  });
  await database.db('form_interactions').insert([
    exit('s1', '/', 60, null),
    exit('s2', '/', 30, 'telefono'),
    exit('s3', '/', 10, null),
    exit('s4', '/', 20, 'email'),
    exit('s6', '/', 40, 'telefono'),
    exit('s5', '/trading-old', 90, 'nome'),
    { event_id: randomUUID(), session_id: 's5', action: 'submit_success', path: '/trading-old', timestamp: at('10:04:00') },
  ]);
});
afterAll(async () => {
  await database.drop();
});

describe('funnel queries', () => {
  it('count the sessions at each step per day, page, campaign and hero variant', async () => {
    const campaign = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno', utm_term: 'guida', utm_content: 'annuncio-b' };
    expect(await funnelByDay(database.db, window)).toEqual([
      { day, landing_path: '/', utm_source: '(direct)', ...NO_SPLIT, landing: 2, form_view: 2, form_start: 1, form_submit: 0, success: 0 },
      { day, landing_path: '/', utm_source: 'google', ...NO_SPLIT, landing: 3, form_view: 2, form_start: 2, form_submit: 1, success: 1 },
      { day, landing_path: '/trading-automatico', ...campaign, hero_variant: 'b', landing: 2, form_view: 1, form_start: 1, form_submit: 1, success: 1 },
      { day, landing_path: '/trading-automatico', ...campaign, hero_variant: 'c', landing: 1, form_view: 1, form_start: 0, form_submit: 0, success: 0 },
      { day, landing_path: '/trading-old', utm_source: 'facebook', ...NO_SPLIT, landing: 1, form_view: 1, form_start: 1, form_submit: 1, success: 1 },
    ]);
    expect(await funnelByDay(database.db, { ...window, utmSource: 'facebook' })).toHaveLength(1);
    expect(await funnelByDay(database.db, { ...window, landingPath: '/', utmSource: '(direct)' })).toHaveLength(1);
    // The stored default selects the same bucket.
    expect(await funnelByDay(database.db, { ...window, utmSource: 'direct' })).toMatchObject([{ utm_source: '(direct)', landing: 2 }]);
    expect(await funnelByDay(database.db, { ...window, utmCampaign: 'autunno' })).toHaveLength(2);
    expect(await funnelByDay(database.db, { ...window, utmMedium: 'cpc', utmTerm: 'guida', utmContent: 'annuncio-b' })).toHaveLength(2);
    expect(await funnelByDay(database.db, { ...window, heroVariant: 'c' })).toMatchObject([{ hero_variant: 'c', landing: 1 }]);
    expect(await funnelByDay(database.db, { ...window, utmCampaign: 'inverno' })).toEqual([]);
    expect(await funnelByDay(database.db, { from: new Date('2026-11-11T00:00:00Z'), to: window.to })).toEqual([]);
  });

  it('give the time on page from page exits', async () => {
    expect(await timeOnPage(database.db, window)).toEqual([
      { path: '/', exits: 5, median_seconds: 30, average_seconds: 32 },
      { path: '/trading-old', exits: 1, median_seconds: 90, average_seconds: 90 },
    ]);
  });

  it('find the field where visitors who did not send the form gave up', async () => {
    expect(await abandonedFields(database.db, window)).toEqual([
      { path: '/', field_name: 'telefono', sessions: 2 },
      { path: '/', field_name: 'email', sessions: 1 },
    ]);
  });
});
