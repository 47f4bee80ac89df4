import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT_SOURCE } from '@guida/shared/analytics-rules';
import { CLICK_ID_FIELDS, FIRST_TOUCH_PREFIX, TOUCH_COLUMNS } from '@guida/shared/attribution-rules';
import { HERO_EXPERIMENTS } from '@guida/shared/experiments';
import { DEFAULT_UTM_SOURCE } from '@guida/shared/lead-rules';
import type { Overview } from '@guida/shared/schemas/admin';
import { insertLead } from '@guida/testing/lead-fixture';
import { signInAsAdmin } from '../../testing/admin-session';
import { leadVerification, verificationSetup } from '../../testing/lead-verification';
import { createTestApi, type TestApi } from '../../testing/test-api';
import { addDays, operatorDay, startOfOperatorDay } from '../reports/report-range';

/**
 * The overview's verified leads (decision 059) equal what the rows say: leads built
 * across pages, campaigns, click ids and variants, made reachable by Twilio's callback
 * and engaged by a real download, counted here from sms_events and guide_downloads.
 */

const setup = verificationSetup();
let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
const [experiment] = HERO_EXPERIMENTS;
const MINUTE = 60_000;
const DAYS = 7;

const PAGES = ['/', '/etf-vs-oro', experiment!.path];
// The first two differ only in utm_content: two campaign rows (Must show 1: all UTM fields).
const CAMPAIGNS: Record<string, string | null>[] = [
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno', utm_term: 'etf' },
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'autunno', utm_term: 'etf', utm_content: 'video' },
  { utm_source: 'facebook', utm_medium: 'paid-social', utm_campaign: null },
  { utm_source: DEFAULT_UTM_SOURCE },
  { utm_source: null },
];
const CLICKS: Record<string, string>[] = [{}, { gclid: 'Cj0-click' }, { first_fbclid: 'IwAR-click' }, { wbraid: 'wb-click' }, {}, { ttclid: 'tt-click' }];

beforeAll(async () => {
  api = await createTestApi(setup.env);
  admin = await signInAsAdmin(api);
  const verify = leadVerification(api);
  const now = Date.now();
  for (let i = 0; i < 40; i += 1) {
    const landingPath = PAGES[i % PAGES.length]!;
    const lead = await insertLead(api.db, {
      landing_path: landingPath,
      ...CAMPAIGNS[i % CAMPAIGNS.length],
      ...CLICKS[i % CLICKS.length],
      hero_variant: landingPath === experiment!.path ? experiment!.variants[i % experiment!.variants.length]!.id : null,
      ad_user_data: 'granted',
      // The last few are older than the period: verified now, but not counted.
      created_at: new Date(i < 36 ? now - (i + 1) * MINUTE : now - 10 * 24 * 60 * MINUTE),
    });
    if (i % 2 === 0) await verify.smsDelivered(lead.leadId);
    else if (i % 7 === 1) await verify.report(await verify.handedToTwilio(lead.leadId), 'undelivered');
    if (i % 3 === 0) await verify.guideDownloaded(lead.leadId);
  }
  // A repeat within 24 h on the experiment's page: a lead everywhere but in the variants.
  const first = await insertLead(api.db, { landing_path: experiment!.path, hero_variant: 'b', created_at: new Date(now - MINUTE) });
  const repeat = await insertLead(api.db, { landing_path: experiment!.path, hero_variant: 'b', repeat_of: first.leadId, created_at: new Date(now - MINUTE) });
  await verify.guideDownloaded(repeat.leadId);
});
afterAll(async () => {
  await api.close();
  setup.remove();
});

interface StoredLead {
  [column: string]: unknown;
  landing_path: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  hero_variant: string | null;
  repeat_of: number | null;
  delivered: boolean;
  downloaded: boolean;
}

type Counts = { leads: number; reachable: number; engaged: number; verified: number };

/** The period's leads as stored, with whether their SMS was reported delivered and their guide downloaded. */
async function storedLeads(): Promise<StoredLead[]> {
  const from = startOfOperatorDay(addDays(operatorDay(new Date()), 1 - DAYS));
  return api.db('ebook_requests as l')
    .select(
      'l.*',
      api.db.raw(`EXISTS (SELECT 1 FROM sms_messages s JOIN sms_events e ON e.sms_message_id = s.id
        WHERE s.lead_id = l.id AND e.status = 'delivered') AS delivered`),
      api.db.raw('EXISTS (SELECT 1 FROM guide_downloads d WHERE d.lead_id = l.id) AS downloaded'),
    )
    .where('l.created_at', '>=', from);
}

function tally(leads: StoredLead[], keyOf: (lead: StoredLead) => string) {
  const groups = new Map<string, Counts>();
  for (const lead of leads) {
    const key = keyOf(lead);
    const counts = groups.get(key) ?? { leads: 0, reachable: 0, engaged: 0, verified: 0 };
    counts.leads += 1;
    counts.reachable += Number(lead.delivered);
    counts.engaged += Number(lead.downloaded);
    counts.verified += Number(lead.delivered || lead.downloaded);
    groups.set(key, counts);
  }
  return Object.fromEntries(groups);
}

const countsOf = ({ leads, reachable, engaged, verified }: Counts): Counts => ({ leads, reachable, engaged, verified });
const shown = <T extends Counts>(rows: T[], keyOf: (row: T) => string) =>
  Object.fromEntries(rows.filter((row) => row.leads > 0).map((row) => [keyOf(row), countsOf(row)]));

const source = (lead: StoredLead) =>
  lead.utm_source === null || lead.utm_source === DEFAULT_UTM_SOURCE ? DIRECT_SOURCE : lead.utm_source;
const hasClick = (lead: StoredLead) =>
  CLICK_ID_FIELDS.some((field) => lead[TOUCH_COLUMNS[field]] !== null || lead[`${FIRST_TOUCH_PREFIX}${TOUCH_COLUMNS[field]}`] !== null);

describe('GET /api/admin/overview: verified leads', () => {
  it('counts reachable, engaged and verified leads as the rows do, in total and per page, source, campaign, ad click and variant', async () => {
    const response = await admin.agent.get(`/api/admin/overview?days=${DAYS}`);
    expect(response.status).toBe(200);
    const body = response.body as Overview;
    const leads = await storedLeads();
    expect(leads).toHaveLength(38);
    // The rows have every kind: reachable only, engaged only, both, neither.
    expect(new Set(leads.map((lead) => `${lead.delivered}/${lead.downloaded}`)).size).toBe(4);

    expect(body.verification).toEqual(tally(leads, () => 'all').all);
    expect(shown(body.byLandingPage, (row) => row.landingPath)).toEqual(tally(leads, (lead) => lead.landing_path ?? ''));
    expect(shown(body.bySource, (row) => row.utmSource)).toEqual(tally(leads, source));
    const campaignRows = shown(body.byCampaign, (row) =>
      [row.utmSource, row.utmMedium, row.utmCampaign, row.utmTerm, row.utmContent].join('|'),
    );
    expect(campaignRows).toEqual(
      tally(leads, (lead) =>
        [source(lead), lead.utm_medium ?? '', lead.utm_campaign ?? '', lead.utm_term ?? '', lead.utm_content ?? ''].join('|'),
      ),
    );
    expect(Object.keys(campaignRows)).toEqual(expect.arrayContaining(['google|cpc|autunno|etf|', 'google|cpc|autunno|etf|video']));
    expect(shown(body.byAdClick, (row) => String(row.adClick))).toEqual(tally(leads, (lead) => String(hasClick(lead))));

    const variantLeads = leads.filter((lead) => lead.landing_path === experiment!.path && lead.hero_variant && lead.repeat_of === null);
    const variantLabel = (id: string) => experiment!.variants.find((variant) => variant.id === id)!.label;
    expect(shown(body.byVariant.filter((row) => row.experimentName === experiment!.name), (row) => row.variantLabel)).toEqual(
      tally(variantLeads, (lead) => variantLabel(lead.hero_variant!)),
    );
  });

  it('shows both ad-click splits, with or without leads', async () => {
    const body = (await admin.agent.get('/api/admin/overview?days=1')).body as Overview;
    expect(body.byAdClick.map((row) => row.adClick)).toEqual([true, false]);
  });
});
