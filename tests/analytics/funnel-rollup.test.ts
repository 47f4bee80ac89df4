/**
 * The admin funnel report read from the worker's daily rollup equals the same report
 * computed from the raw rows, on real PostgreSQL, for whole and partial ranges, filters
 * on the page, every campaign field and the hero variant,
 * a daylight-saving change, sessions landing on several days and pages, steps after
 * midnight and late events.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_TEXT_LIMITS } from '@guida/shared/analytics-rules';
import { conversionSchema } from '@guida/shared/schemas/analytics';
import { createLogger } from '@guida/shared/server/logger';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { reportRange } from '../../api/src/admin/reports/report-range';
import { abandonedFields, funnelByDay, timeOnPage, type FunnelFilter } from '../../api/src/admin/reports/funnel.repo';
import { createRollUpFunnel } from '../../worker/src/maintenance/roll-up-funnel';

let database: TestDatabase;
let rollUpFunnel: ReturnType<typeof createRollUpFunnel>;
/** Europe moves its clocks forward on 29 March 2026: that day has 23 hours. */
const now = new Date('2026-04-02T10:00:00Z');
const DAY_MS = 86_400_000;

/**
 * Random but seeded sessions over the two weeks before `now`: one to three landings on one
 * or two pages, some in the same instant, with and without campaign, each followed by steps
 * (some repeated, some more than 24 h later, some before the landing), and page exits.
 */
async function insertSessions() {
  await database.db.raw(`SELECT setseed(0.42)`);
  await database.db.raw(
    `
    WITH sessions AS MATERIALIZED (
      SELECT 's' || i AS session_id, ?::timestamptz - random() * interval '14 days' AS first_at,
        (ARRAY['/', '/trading-old', '/educazione-investimenti'])[1 + floor(random() * 3)::int] AS path,
        1 + floor(random() * 3)::int AS visits
      FROM generate_series(1, 600) AS i
    ),
    visits AS MATERIALIZED (
      SELECT s.session_id,
        CASE WHEN v > 1 AND random() < 0.3 THEN '/' ELSE s.path END AS path,
        -- The second visit of some sessions lands in the same instant as the first.
        CASE WHEN v = 2 AND random() < 0.15 THEN s.first_at ELSE s.first_at + (v - 1) * random() * interval '40 hours' END AS at,
        -- 'direct' (an address that says so) is counted with the landings without utm_source.
        (ARRAY[NULL, 'google', 'facebook', 'direct'])[1 + floor(random() * 4)::int] AS utm_source,
        (ARRAY[NULL, 'cpc', 'email'])[1 + floor(random() * 3)::int] AS utm_medium,
        (ARRAY[NULL, 'autunno', 'inverno'])[1 + floor(random() * 3)::int] AS utm_campaign,
        (ARRAY[NULL, 'guida'])[1 + floor(random() * 2)::int] AS utm_term,
        (ARRAY[NULL, 'annuncio-b'])[1 + floor(random() * 2)::int] AS utm_content,
        (ARRAY[NULL, 'a', 'b'])[1 + floor(random() * 3)::int] AS hero_variant,
        floor(random() * 6)::int AS depth
      FROM sessions s CROSS JOIN LATERAL generate_series(1, s.visits) AS v
    )
    INSERT INTO conversion_funnel (event_id, session_id, step, metadata, timestamp)
    SELECT gen_random_uuid(), v.session_id, (ARRAY['landing', 'form_view', 'form_start', 'form_submit', 'success'])[n],
      CASE WHEN n = 1
        THEN jsonb_strip_nulls(jsonb_build_object('path', v.path, 'utm_source', v.utm_source, 'utm_medium', v.utm_medium,
          'utm_campaign', v.utm_campaign, 'utm_term', v.utm_term, 'utm_content', v.utm_content, 'hero_variant', v.hero_variant))
        ELSE jsonb_build_object('path', v.path) END,
      v.at + CASE WHEN n = 1 THEN interval '0' ELSE (random() * 30 - 2) * interval '1 hour' END
    FROM visits v
    CROSS JOIN LATERAL generate_series(1, greatest(1, v.depth)) AS n
    CROSS JOIN LATERAL generate_series(1, CASE WHEN n > 1 AND random() < 0.2 THEN 2 ELSE 1 END) AS repeated
    `,
    [now],
  );
  await database.db.raw(
    `
    INSERT INTO form_interactions (event_id, session_id, action, field_name, time_on_page, path, timestamp)
    SELECT gen_random_uuid(), 's' || (1 + floor(random() * 600)::int), action,
      CASE WHEN action = 'page_exit' AND random() < 0.7 THEN (ARRAY['nome', 'email', 'telefono'])[1 + floor(random() * 3)::int] END,
      CASE WHEN action = 'page_exit' THEN floor(random() * 300)::int END,
      (ARRAY['/', '/trading-old'])[1 + floor(random() * 2)::int], ?::timestamptz - random() * interval '14 days'
    FROM generate_series(1, 800), LATERAL (SELECT CASE WHEN random() < 0.8 THEN 'page_exit' ELSE 'submit_success' END AS action) a
    `,
    [now],
  );
}

const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);

const FILTERS: FunnelFilter[] = [
  reportRange({ from: day(-15), to: day(0) }),
  reportRange({ from: day(-9), to: day(-5) }),
  reportRange({ from: day(-6), to: day(-2) }),
  { ...reportRange({ from: day(-15), to: day(0) }), landingPath: '/' },
  { ...reportRange({ from: day(-15), to: day(0) }), utmSource: '(direct)' },
  { ...reportRange({ from: day(-12), to: day(-1) }), landingPath: '/trading-old', utmSource: 'google' },
  { ...reportRange({ from: day(-15), to: day(0) }), utmCampaign: 'autunno', utmTerm: 'guida' },
  { ...reportRange({ from: day(-12), to: day(-2) }), heroVariant: 'b', utmMedium: 'cpc', utmContent: 'annuncio-b' },
  // Instants inside days: the partial days at both ends come from the raw rows.
  { from: new Date(now.getTime() - 10.3 * DAY_MS), to: new Date(now.getTime() - 4.6 * DAY_MS) },
  { from: new Date(now.getTime() - 3 * DAY_MS), to: now },
];

const report = async (filter: FunnelFilter) => ({
  days: await funnelByDay(database.db, filter),
  timeOnPage: await timeOnPage(database.db, filter),
  abandonedFields: await abandonedFields(database.db, filter),
});

beforeAll(async () => {
  database = await createTestDatabase();
  rollUpFunnel = createRollUpFunnel({ db: database.db, logger: createLogger({ service: 'test', level: 'silent' }) });
  await insertSessions();
});
afterAll(async () => {
  await database.drop();
});

describe('funnel rollup', () => {
  it('gives the same reports as the raw rows', async () => {
    const fromRawRows = await Promise.all(FILTERS.map(report));
    expect(fromRawRows[0]!.days.length).toBeGreaterThan(30);
    expect(fromRawRows[0]!.days.some((row) => row.day === '2026-03-29')).toBe(true);
    // Every filter selects something, and the split filters select less than all.
    for (const [index, filter] of FILTERS.entries()) expect(fromRawRows[index]!.days.length, JSON.stringify(filter)).toBeGreaterThan(0);
    for (const index of [6, 7]) expect(fromRawRows[index]!.days.length).toBeLessThan(fromRawRows[0]!.days.length / 4);

    expect(await rollUpFunnel(now)).toBeGreaterThan(10);

    for (const [index, filter] of FILTERS.entries()) {
      expect(await report(filter), JSON.stringify(filter)).toEqual(fromRawRows[index]);
    }
  });

  it('leaves today and the two days before live, and aggregates each closed day once more for late events', async () => {
    const lastClosed = day(-3);
    const days = (await database.db.raw<{ rows: { day: string }[] }>(
      `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM funnel_daily_days`,
    )).rows;
    expect(days[0]!.day).toBe(lastClosed);

    // A visit that waited in the stream while the worker was down, stored after the rollup.
    const landedAt = new Date(`${lastClosed}T12:00:00+02:00`);
    await database.db('conversion_funnel').insert(
      ['landing', 'form_view'].map((step, index) => ({
        event_id: randomUUID(),
        session_id: 'late',
        step,
        metadata: { path: '/', utm_source: 'newsletter' },
        timestamp: new Date(landedAt.getTime() + index * 60_000),
      })),
    );
    const range = reportRange({ from: lastClosed, to: lastClosed });
    const aggregatedDays = await database.db('funnel_daily_days').select('day', 'aggregated_at');
    await database.db('funnel_daily_days').delete();
    const fromRawRows = await funnelByDay(database.db, range);
    await database.db('funnel_daily_days').insert(aggregatedDays);
    expect(await funnelByDay(database.db, range)).not.toEqual(fromRawRows);

    await rollUpFunnel(now);
    expect(await funnelByDay(database.db, range)).toEqual(fromRawRows);
  });

  it('aggregates a landing with the longest campaign values the API accepts (the key stays indexable)', async () => {
    // 150 UTF-16 units of a 3-byte character in each UTM field: the most UTF-8 bytes the
    // analytics schema lets through, under PostgreSQL's 2,704-byte limit of an index row.
    const longest = '€'.repeat(ANALYTICS_TEXT_LIMITS.utm);
    expect(conversionSchema.safeParse({ sessionId: 'V1StGXR8_Z5jdHi6B-myT', step: 'landing', metadata: { path: '/', utm_source: longest } }).success).toBe(true);
    expect(conversionSchema.safeParse({ sessionId: 'V1StGXR8_Z5jdHi6B-myT', step: 'landing', metadata: { path: '/', utm_source: `${longest}€` } }).success).toBe(false);
    const day = '2026-03-20';
    await database.db('conversion_funnel').insert({
      event_id: randomUUID(),
      session_id: 'longest',
      step: 'landing',
      metadata: {
        path: '/trading-automatico',
        ...Object.fromEntries(['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'].map((field) => [field, longest])),
        hero_variant: 'b',
      },
      timestamp: new Date(`${day}T12:00:00+01:00`),
    });
    await database.db('funnel_daily_days').where({ day }).delete();
    await rollUpFunnel(now);
    const [row] = await funnelByDay(database.db, { ...reportRange({ from: day, to: day }), utmTerm: longest });
    expect(row).toMatchObject({ landing_path: '/trading-automatico', utm_content: longest, hero_variant: 'b', landing: 1 });
    expect(await database.db('funnel_daily_days').where({ day }).first()).toBeDefined();
  });

  it('keeps the aggregates of days whose raw rows retention has deleted', async () => {
    const range = reportRange({ from: day(-14), to: day(-10) });
    const before = await funnelByDay(database.db, range);
    expect(before.length).toBeGreaterThan(0);
    await database.db('conversion_funnel').where('timestamp', '<', new Date(now.getTime() - 9 * DAY_MS)).delete();
    await rollUpFunnel(now);
    expect(await funnelByDay(database.db, range)).toEqual(before);
  });
});
