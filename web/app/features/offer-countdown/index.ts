export { OfferCountdown } from './offer-countdown';
