import express from 'express';
import { adminRouter } from '../admin/admin.routes';
import { analyticsRouter } from '../analytics/analytics.routes';
import { liveStatsRouter } from '../analytics/live-stats.routes';
import { consentRouter } from '../consent/consent.routes';
import { gdprAdminRouter } from '../gdpr/gdpr-admin.routes';
import { gdprRouter } from '../gdpr/gdpr.routes';
import { guideRouter } from '../guide/guide.routes';
import { healthRouter } from '../health/health.routes';
import { apiNotFound, errorHandler, pageNotFound } from '../http/error-handler';
import { requestLogging } from '../http/request-logging';
import { securityHeaders } from '../http/security-headers';
import { leadsRouter } from '../leads/leads.routes';
import { siteSettingsRouter } from '../site/site-settings.routes';
import { siteRouter } from '../site/site.routes';
import { smsStatusRouter } from '../sms-status/sms-status.routes';
import { createTestApi } from './test-api';

/**
 * The test API as app.ts builds it, plus the data-rights routes mounted as app.ts is to
 * mount them: the public ones before the /api 404 and the site, the admin ones under
 * /api/admin behind the real admin guard (the admin router's guard runs for every
 * /api/admin path and falls through to them). Until app.ts mounts them, the data-rights
 * tests use this app; afterwards createTestApi will do.
 */
export async function createGdprTestApi(env: Record<string, string> = {}) {
  const api = await createTestApi(env);
  const { deps } = api;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.use(requestLogging(deps.logger));
  app.use(securityHeaders({ production: false, analytics: false }));
  app.use(healthRouter(deps));
  app.use(analyticsRouter(deps));
  app.use(express.json({ limit: '16kb' }));
  app.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  app.use(leadsRouter(deps));
  app.use(smsStatusRouter(deps));
  app.use(guideRouter(deps));
  app.use(consentRouter(deps));
  app.use(siteSettingsRouter(deps));
  app.use(liveStatsRouter(deps));
  app.use(gdprRouter(deps));
  app.use('/api/admin', adminRouter(deps));
  app.use('/api/admin', gdprAdminRouter(deps));
  app.use('/api', apiNotFound);
  app.use(siteRouter(deps));
  app.use(pageNotFound);
  app.use(errorHandler);
  return { ...api, app };
}

export type GdprTestApi = Awaited<ReturnType<typeof createGdprTestApi>>;
