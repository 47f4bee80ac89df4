import type { Knex } from 'knex';
import type { Logger } from '@guida/shared/server/logger';
import { auditConfigurationChange } from '../admin';
import type { OfferSettings } from './offer';
import { backfillPlaces } from './offer-places.repo';

/** The settings as the audit log shows them: ISO times, 0 for no cap (as FREE_PLACES_TOTAL). */
const shown = (settings: OfferSettings) => ({
  startsAt: settings.startsAt?.toISOString() ?? null,
  endsAt: settings.endsAt?.toISOString() ?? null,
  placesTotal: settings.placesTotal ?? 0,
});

interface SettingsRow {
  starts_at: Date | null;
  ends_at: Date | null;
  places_total: number;
  places_backfilled_at: Date | null;
}

export interface RecordedOffer {
  /** The settings found changed (and the audit entry written): before and after. */
  change: { before: ReturnType<typeof shown>; after: ReturnType<typeof shown> } | null;
  /** Places given to leads stored before places were kept (the first start after the migration only). */
  backfilled: number;
}

/**
 * At an API start: compares the configured offer with the one last recorded and, when
 * they differ, records the new one and writes one audit entry with both (the settings
 * come from the environment, so a start is where a change shows). Idempotent across API
 * processes starting together (decision 020): the offer row is locked while it is read and
 * written, so the first process records the change and the others find it recorded. The
 * first start after the migration also gives places to the leads stored before it.
 */
export async function recordOfferSettings(
  db: Knex,
  settings: OfferSettings,
  placeKey: (phone: string) => Buffer,
): Promise<RecordedOffer> {
  return db.transaction(async (trx) => {
    const row = await trx('offer_settings')
      .where({ id: 1 })
      .forUpdate()
      .first<SettingsRow>('starts_at', 'ends_at', 'places_total', 'places_backfilled_at');
    if (!row) throw new Error('offer_settings has no row: run the migrations');

    const backfilled = row.places_backfilled_at ? 0 : await backfillPlaces(trx, settings.startsAt, placeKey);
    const before = shown({
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      placesTotal: row.places_total > 0 ? row.places_total : null,
    });
    const after = shown(settings);
    const changed = (Object.keys(after) as (keyof typeof after)[]).some((key) => before[key] !== after[key]);

    await trx('offer_settings')
      .where({ id: 1 })
      .update({
        ...(changed
          ? { starts_at: settings.startsAt, ends_at: settings.endsAt, places_total: after.placesTotal, recorded_at: trx.fn.now() }
          : {}),
        places_backfilled_at: row.places_backfilled_at ?? trx.fn.now(),
      });
    if (changed) {
      await auditConfigurationChange(trx, {
        action: 'change_offer_settings',
        target: { type: 'offer', id: 1 },
        details: { before, after },
      });
    }
    return { change: changed ? { before, after } : null, backfilled };
  });
}

const RETRY_MS = 30_000;

/**
 * Records the offer at start without holding the start up; a database that does not
 * answer yet is asked again every 30 s until the offer is recorded.
 */
export function recordOfferSettingsAtStart(
  db: Knex,
  settings: OfferSettings,
  placeKey: (phone: string) => Buffer,
  logger: Logger,
) {
  const attempt = () => {
    recordOfferSettings(db, settings, placeKey).then(
      ({ change, backfilled }) => {
        if (change) logger.info({ ...change }, 'offer settings changed: recorded in the audit log');
        if (backfilled > 0) logger.info({ backfilled }, 'places given to the leads stored before places were kept');
      },
      (error: unknown) => {
        logger.warn({ err: (error as Error).message }, `offer settings not recorded; trying again in ${RETRY_MS / 1000} s`);
        setTimeout(attempt, RETRY_MS).unref();
      },
    );
  };
  attempt();
}
