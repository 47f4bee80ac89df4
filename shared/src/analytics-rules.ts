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
