import { lazy } from 'react';

// Shown once the page is idle, never in the prerendered page: its code loads then.
export const OfferCountdown = lazy(async () => ({ default: (await import('./offer-countdown')).OfferCountdown }));
