export { recordLanding, visitAttribution } from './attribution';
export { trackCtaClick, useFormTracking } from './use-form-tracking';
export { usePageTracking } from './use-page-tracking';
