import { type RouteConfig, route } from '@react-router/dev/routes';
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

export default [
  ...each(FINANCE_LANDING_PATHS, 'routes/finance-landing.tsx', 'finance'),
  ...each(INVESTMENT_LANDING_PATHS, 'routes/investment-landing.tsx', 'investment'),
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
