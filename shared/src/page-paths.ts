import { OLDER_PAGE_PATH } from './lead-rules';

/** The public paths of the spec's route table, by page type (web routes, API live figures). */

export const FINANCE_LANDING_PATHS = ['/', '/trading-automatico', '/ai-trading-native', '/trading-news-native'] as const;
export const INVESTMENT_LANDING_PATHS = ['/market-report-native', '/educazione-investimenti'] as const;
export const OLDER_LANDING_PATH = OLDER_PAGE_PATH;

export const TOPIC_PATHS = [
  '/pianificazione-finanziaria',
  '/errori-trading-svizzera',
  '/trading-automatico-svizzera',
  '/guida-trading-svizzera',
  '/oro-fisico-digitale',
  '/oro-svizzera',
  '/trend-oro-italiani',
  '/trend-oro-svizzera',
  '/etf-vs-oro',
  '/etf-vs-oro-svizzera',
  '/segnali-trading',
  '/segnali-trading-svizzera',
  '/investimenti-sicuri',
  '/finanza-personale',
] as const;

export const CITY_PATHS = [
  '/trading-italia',
  '/trading-milano',
  '/trading-roma',
  '/trading-napoli',
  '/trading-torino',
  '/trading-bari',
] as const;

export const THANK_YOU_PATHS = ['/grazie-italia', '/grazie-svizzera', '/grazie', '/grazie-neutral'] as const;

export const ADMIN_PATHS = ['/admin-login', '/admin/login', '/admin-dashboard', '/admin/dashboard'] as const;

/** The admin area's pages (client-side routes); any other path under /admin is unknown. */
export const isAdminPage = (path: string) => (ADMIN_PATHS as readonly string[]).includes(path);

/** Prerendered for unknown paths; the API serves it with HTTP 404. */
export const NOT_FOUND_PATH = '/404';

/** Pages search engines should list (thank-you and welcome pages are not for search). */
export const INDEXABLE_PATHS = [
  ...FINANCE_LANDING_PATHS.slice(0, 1),
  '/educazione-investimenti',
  OLDER_LANDING_PATH,
  ...TOPIC_PATHS,
  ...CITY_PATHS,
  '/privacy',
  '/gdpr',
];

/** The canonical page of each landing variant (same content under several campaign paths). */
export function canonicalPathOf(path: string): string {
  if ((FINANCE_LANDING_PATHS as readonly string[]).includes(path)) return '/';
  if ((INVESTMENT_LANDING_PATHS as readonly string[]).includes(path)) return '/educazione-investimenti';
  return path;
}

/** Pages a visitor reads: the live figures and stored analytics paths know only these. */
export const SITE_PAGE_PATHS: ReadonlySet<string> = new Set([
  ...FINANCE_LANDING_PATHS,
  ...INVESTMENT_LANDING_PATHS,
  OLDER_LANDING_PATH,
  ...TOPIC_PATHS,
  ...CITY_PATHS,
  '/privacy',
  '/gdpr',
  ...THANK_YOU_PATHS,
  '/welcome',
]);

export const isSitePage = (path: string) => SITE_PAGE_PATHS.has(path);
