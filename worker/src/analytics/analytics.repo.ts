import type { Knex } from 'knex';
import { storedPath, storedReferrer } from '@guida/shared/analytics-urls';
import type { IngestedEvent } from '@guida/shared/schemas/analytics';
import { preparedStatement } from '@guida/shared/server/prepared-statement';

/*
 * One multi-row INSERT per table and batch: the rows go as arrays and unnest() turns them
 * back into rows. ON CONFLICT on the client event id makes a replayed batch a no-op.
 */
const insertPageViews = preparedStatement(
  'insert-page-views',
  `INSERT INTO page_views (event_id, session_id, path, referrer, user_agent, ip_address, device, browser, os,
     screen_resolution, language, hero_variant, timestamp)
   SELECT * FROM unnest(:eventIds::uuid[], :sessionIds::text[], :paths::text[], :referrers::text[], :userAgents::text[],
     :ipAddresses::text[], :devices::text[], :browsers::text[], :oses::text[], :screens::text[], :languages::text[],
     :heroVariants::text[], :times::timestamptz[])
   ON CONFLICT (event_id) DO NOTHING`,
);

const insertConversions = preparedStatement(
  'insert-conversions',
  `INSERT INTO conversion_funnel (event_id, session_id, step, metadata, timestamp)
   SELECT * FROM unnest(:eventIds::uuid[], :sessionIds::text[], :steps::text[], :metadata::jsonb[], :times::timestamptz[])
   ON CONFLICT (event_id) DO NOTHING`,
);

const insertSectionViews = preparedStatement(
  'insert-section-views',
  `INSERT INTO section_views (event_id, session_id, section, time_spent, path, timestamp)
   SELECT * FROM unnest(:eventIds::uuid[], :sessionIds::text[], :sections::text[], :timeSpent::int[], :paths::text[],
     :times::timestamptz[])
   ON CONFLICT (event_id) DO NOTHING`,
);

const insertFormInteractions = preparedStatement(
  'insert-form-interactions',
  `INSERT INTO form_interactions (event_id, session_id, action, field_name, error_message, time_on_page, scroll_depth,
     path, timestamp)
   SELECT * FROM unnest(:eventIds::uuid[], :sessionIds::text[], :actions::text[], :fieldNames::text[],
     :errorMessages::text[], :timeOnPage::int[], :scrollDepth::int[], :paths::text[], :times::timestamptz[])
   ON CONFLICT (event_id) DO NOTHING`,
);

type Field = string | number | null;
const column = (events: IngestedEvent[], key: string): Field[] =>
  events.map((event) => (event.data[key] ?? null) as Field);
/*
 * Paths and referrers again without query string or fragment: the API strips them, and
 * this also covers entries queued before it did (a GDPR token in a referrer).
 */
const paths = (events: IngestedEvent[]) =>
  events.map((event) => (typeof event.data.path === 'string' ? storedPath(event.data.path) : null));
const referrers = (values: unknown[]) => values.map((value) => storedReferrer(typeof value === 'string' ? value : null));
const conversionMetadata = (event: IngestedEvent) => {
  const metadata = (event.data.metadata ?? {}) as Record<string, unknown>;
  return JSON.stringify({
    ...metadata,
    ...(typeof metadata.path === 'string' ? { path: storedPath(metadata.path) } : {}),
    ...('referrer' in metadata ? { referrer: storedReferrer(typeof metadata.referrer === 'string' ? metadata.referrer : null) } : {}),
  });
};
const base = (events: IngestedEvent[]) => ({
  eventIds: events.map((event) => event.eventId),
  sessionIds: column(events, 'sessionId'),
  times: events.map((event) => event.at),
});

/** Stores a batch of events of every type in one transaction; returns the rows inserted. */
export async function insertAnalyticsEvents(db: Knex, events: IngestedEvent[]): Promise<number> {
  const byType = (type: IngestedEvent['type']) => events.filter((event) => event.type === type);
  const pageViews = byType('page-view');
  const conversions = byType('conversion');
  const sections = byType('section-view');
  const interactions = byType('form-interaction');

  return db.transaction(async (trx) => {
    let inserted = 0;
    if (pageViews.length > 0) {
      const result = await insertPageViews(trx, {
        ...base(pageViews),
        paths: paths(pageViews),
        referrers: referrers(column(pageViews, 'referrer')),
        userAgents: column(pageViews, 'userAgent'),
        ipAddresses: pageViews.map((event) => event.ipAddress),
        devices: column(pageViews, 'device'),
        browsers: column(pageViews, 'browser'),
        oses: column(pageViews, 'os'),
        screens: column(pageViews, 'screenResolution'),
        languages: column(pageViews, 'language'),
        heroVariants: column(pageViews, 'heroVariant'),
      });
      inserted += result.rowCount ?? 0;
    }
    if (conversions.length > 0) {
      const result = await insertConversions(trx, {
        ...base(conversions),
        steps: column(conversions, 'step'),
        metadata: conversions.map(conversionMetadata),
      });
      inserted += result.rowCount ?? 0;
    }
    if (sections.length > 0) {
      const result = await insertSectionViews(trx, {
        ...base(sections),
        sections: column(sections, 'section'),
        timeSpent: column(sections, 'timeSpent'),
        paths: paths(sections),
      });
      inserted += result.rowCount ?? 0;
    }
    if (interactions.length > 0) {
      const result = await insertFormInteractions(trx, {
        ...base(interactions),
        actions: column(interactions, 'action'),
        fieldNames: column(interactions, 'fieldName'),
        errorMessages: column(interactions, 'errorMessage'),
        timeOnPage: column(interactions, 'timeOnPage'),
        scrollDepth: column(interactions, 'scrollDepth'),
        paths: paths(interactions),
      });
      inserted += result.rowCount ?? 0;
    }
    return inserted;
  });
}
