import { lazy } from 'react';

export { CookieBanner, CookiePreferencesLink } from './cookie-banner';
export { CookieConsentProvider, useCookieChoice, useCookieConsent } from './cookie-consent';
export { trackGaEvent } from './google-analytics';
/** The settings panel, loaded the first time it opens: nothing of it is in the prerendered HTML. */
export const CookieSettingsPanel = lazy(() => import('./cookie-settings-panel'));
