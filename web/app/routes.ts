import { type RouteConfig, route } from '@react-router/dev/routes';
import { experimentOfPath } from '@guida/shared/experiments';
import {
  ADMIN_PATHS,
  CITY_PATHS,
  FINANCE_LANDING_PATHS,
  INVESTMENT_LANDING_PATHS,
  OLDER_LANDING_PATH,
  THANK_YOU_PATHS,
  TOPIC_PATHS,
} from './page-paths';

/** One module per page type; paths sharing a module get their own route id. */
const each = (paths: readonly string[], file: string, idPrefix: string) =>
  paths.map((path) => route(path, file, { id: `${idPrefix}:${path.slice(1).replace(/\//g, '_') || 'home'}` }));

/**
 * Landing pages; one under a hero experiment takes an optional segment, the variant
 * prerendered below its path (decision 041), under the same route id: the variant's HTML,
 * served at the page's own path, hydrates as that page.
 */
const landings = (paths: readonly string[], file: string, idPrefix: string) =>
  each(paths, file, idPrefix).map((entry) =>
    experimentOfPath(entry.path) ? { ...entry, path: `${entry.path === '/' ? '' : entry.path}/:heroVariant?` } : entry,
  );

export default [
  ...landings(FINANCE_LANDING_PATHS, 'routes/finance-landing.tsx', 'finance'),
  ...landings(INVESTMENT_LANDING_PATHS, 'routes/investment-landing.tsx', 'investment'),
  route(OLDER_LANDING_PATH, 'routes/trading-old.tsx'),
  ...each(TOPIC_PATHS, 'routes/topic.tsx', 'topic'),
  ...each(CITY_PATHS, 'routes/city.tsx', 'city'),
  route('/privacy', 'routes/privacy.tsx'),
  route('/gdpr', 'routes/gdpr.tsx'),
  ...each(THANK_YOU_PATHS, 'routes/thank-you.tsx', 'thank-you'),
  route('/welcome', 'routes/welcome.tsx'),
  ...each(ADMIN_PATHS.filter((path) => path.includes('login')), 'routes/admin-login.tsx', 'admin-login'),
  ...each(ADMIN_PATHS.filter((path) => path.includes('dashboard')), 'routes/admin-dashboard.tsx', 'admin-dashboard'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
