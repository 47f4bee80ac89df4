/** Analytics facts the browser needs on its first load, without zod. */
export const FUNNEL_STEPS = ['landing', 'form_view', 'form_start', 'form_submit', 'success'] as const;
export const FORM_ACTIONS = [
  'view_form',
  'start_typing',
  'submit_attempt',
  'submit_success',
  'submit_error',
  'cta_click',
  'page_exit',
] as const;
export const DEVICES = ['Desktop', 'Mobile', 'Tablet'] as const;
export const MAX_EVENTS_PER_BATCH = 100;

/** Days in reports and filters are days in the operator's time zone. */
export const OPERATOR_TIME_ZONE = 'Europe/Rome';

/** The campaign source of a visit or lead without utm_source, in the funnel and the reports. */
export const DIRECT_SOURCE = '(direct)';

/**
 * Longest text the API accepts per analytics field. The site's paths are short (the
 * longest is under 40 characters) and every other text comes from our own tracker; a
 * referrer may arrive with a long query string, which is not stored (analytics-urls.ts).
 */
export const ANALYTICS_TEXT_LIMITS = {
  path: 300,
  referrer: 1000,
  userAgent: 512,
  language: 35,
  screenResolution: 20,
  browser: 30,
  os: 30,
  section: 50,
  fieldName: 50,
  errorMessage: 300,
  /**
   * Campaign values (CAMPAIGN_VALUE_MAX_LENGTH of attribution-rules.ts). All five are in
   * the key of the funnel rollup: at 150 (at most 450 UTF-8 bytes each) the key stays under
   * PostgreSQL's 2,704-byte index row (tests/analytics/funnel-rollup.test.ts).
   */
  utm: 150,
} as const;
