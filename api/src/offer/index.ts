/**
 * The offer (decision 047): its settings, the places taken (one per phone, from the
 * offer's start, never given back) and whether it has ended. The lead intake enforces
 * it; the site settings, the live figures and the admin overview report it.
 */
import type { ApiDeps } from '../dependencies';
import { offerOf } from './offer';
import { recordOfferSettingsAtStart } from './offer-settings.repo';

export { offerOf, offerSettingsOf, offerStatus, placeKeyOf, type Offer, type OfferEndReason, type OfferSettings } from './offer';
export { lockOfferAndReadPlaces } from './offer-places.repo';
export { recordOfferSettings, type RecordedOffer } from './offer-settings.repo';

/** At an API start: the offer recorded, and audited when it changed (in the background). */
export function recordOfferAtStart(deps: ApiDeps) {
  const offer = offerOf(deps);
  recordOfferSettingsAtStart(deps.db, offer.settings, offer.placeKey, deps.logger);
}
