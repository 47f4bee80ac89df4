import { createHmac } from 'node:crypto';
import type { ApiConfig } from '../config';
import type { ApiDeps } from '../dependencies';
import { countPlacesTaken } from './offer-places.repo';

export type OfferEndReason = 'deadline' | 'places';

/** The offer as configured (OFFER_STARTS_AT, OFFER_ENDS_AT, FREE_PLACES_TOTAL). */
export interface OfferSettings {
  startsAt: Date | null;
  endsAt: Date | null;
  /** Free places; null when FREE_PLACES_TOTAL is 0 (no cap). */
  placesTotal: number | null;
}

export function offerSettingsOf(config: Pick<ApiConfig, 'OFFER_STARTS_AT' | 'OFFER_ENDS_AT' | 'FREE_PLACES_TOTAL'>): OfferSettings {
  return {
    startsAt: config.OFFER_STARTS_AT ? new Date(config.OFFER_STARTS_AT) : null,
    endsAt: config.OFFER_ENDS_AT ? new Date(config.OFFER_ENDS_AT) : null,
    placesTotal: config.FREE_PLACES_TOTAL > 0 ? config.FREE_PLACES_TOTAL : null,
  };
}

/**
 * The key of a phone's place: HMAC-SHA256 of its E.164 number, under a key derived from
 * SESSION_SECRET. The row can outlive the lead's erasure without keeping the number: a
 * copy of the database alone cannot tell whose place it is (an unkeyed hash of a phone
 * number is undone by trying every number).
 */
export function placeKeyOf(secret: string) {
  const key = createHmac('sha256', secret).update('offer-place').digest();
  return (phone: string) => createHmac('sha256', key).update(phone).digest();
}

/** The offer of one API process: its settings, the clock, and what it knows of the places. */
export interface Offer {
  readonly settings: OfferSettings;
  now(): Date;
  placeKey(phone: string): Buffer;
  /**
   * Why the offer has ended, as far as this process knows without asking the database:
   * its deadline has passed, or its intake found every place taken (places are never
   * given back, and the settings cannot change while the process runs).
   */
  knownEndReason(): OfferEndReason | null;
  /** Capped intake found no place left. */
  allPlacesTaken(): void;
  /** Places taken since the offer's start, counted at most once per LIVE_STATS_CACHE_SECONDS. */
  placesTaken(): Promise<number>;
  /** Why the offer has ended now (counting the places only when a cap is configured), or null. */
  endReason(): Promise<OfferEndReason | null>;
}

function createOffer(deps: ApiDeps): Offer {
  const settings = offerSettingsOf(deps.config);
  const now = deps.now ?? (() => new Date());
  const placeKey = placeKeyOf(deps.config.SESSION_SECRET);
  const ttlMs = deps.config.LIVE_STATS_CACHE_SECONDS * 1000;
  let full = false;
  let counted: { at: number; taken: Promise<number> } | null = null;

  const offer: Offer = {
    settings,
    now,
    placeKey,
    knownEndReason() {
      if (settings.endsAt && now() >= settings.endsAt) return 'deadline';
      return full ? 'places' : null;
    },
    allPlacesTaken() {
      full = true;
    },
    placesTaken() {
      const at = Date.now();
      if (!counted || at - counted.at >= ttlMs) {
        const entry = { at, taken: countPlacesTaken(deps.db, settings.startsAt) };
        counted = entry;
        // A failed count is not kept.
        entry.taken.catch(() => {
          if (counted === entry) counted = null;
        });
      }
      return counted.taken;
    },
    async endReason() {
      const known = offer.knownEndReason();
      if (known || settings.placesTotal === null) return known;
      if ((await offer.placesTaken()) >= settings.placesTotal) full = true;
      return full ? 'places' : null;
    },
  };
  return offer;
}

/** The offer as the admin sees it: settings, places taken, and why it has ended (null while it runs). */
export async function offerStatus(offer: Offer) {
  const [placesTaken, endReason] = await Promise.all([offer.placesTaken(), offer.endReason()]);
  const { startsAt, endsAt, placesTotal } = offer.settings;
  return { startsAt: startsAt?.toISOString() ?? null, endsAt: endsAt?.toISOString() ?? null, placesTotal, placesTaken, endReason };
}

const offers = new WeakMap<ApiDeps, Offer>();

/** One per app, so that what the intake learns (every place taken) reaches the site settings of the same process. */
export function offerOf(deps: ApiDeps): Offer {
  let offer = offers.get(deps);
  if (!offer) {
    offer = createOffer(deps);
    offers.set(deps, offer);
  }
  return offer;
}
