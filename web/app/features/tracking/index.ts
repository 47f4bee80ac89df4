export { recordLanding, visitAttribution } from './attribution';
export { ClickIdsByConsent } from './click-ids-by-consent';
export { trackCtaClick, useFormTracking } from './use-form-tracking';
export { usePageTracking } from './use-page-tracking';
export { VisitSession, visitSessionToken } from './visit-session';
