import express from 'express';
import { providerIdentityOf } from '@guida/shared/provider-identity';
import type { ApiDeps } from './dependencies';
import { apiNotFound, errorHandler, pageNotFound } from './http/error-handler';
import { requestLogging } from './http/request-logging';
import { namePageProvider } from './http/html-page';
import { refuseCompressedBodies } from './http/public-intake';
import { securityHeaders } from './http/security-headers';
import { guideRouter } from './guide/guide.routes';
import { healthRouter } from './health/health.routes';
import { leadsRouter } from './leads/leads.routes';
import { httpMetrics, metricsRouter } from './metrics';
import { smsStatusRouter } from './sms-status/sms-status.routes';
import { analyticsRouter } from './analytics/analytics.routes';
import { liveStatsRouter } from './analytics/live-stats.routes';
import { consentRouter } from './consent/consent.routes';
import { siteRouter } from './site/site.routes';
import { siteSettingsRouter } from './site/site-settings.routes';
import { adminRouter } from './admin/admin.routes';
import { gdprRouter } from './gdpr/gdpr.routes';
import { marketingWithdrawalRouter } from './marketing-withdrawal';
import { challengeRouter } from './challenge';
import { visitSessionRouter } from './experiments';
import { googleAdsConversionsRouter } from './google-ads-conversions';

/** Bodies of the other routes (admin, SMS status callbacks) are small; bigger ones get 413. */
const BODY_LIMIT = '16kb';

/** Builds the express app without listening, so tests drive it with supertest. */
export function createApp(deps: ApiDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  namePageProvider(app, providerIdentityOf(deps.config));

  app.use(requestLogging(deps.logger));
  app.use(httpMetrics(deps.metrics));
  app.use(
    securityHeaders({
      production: deps.config.NODE_ENV === 'production',
      analytics: Boolean(deps.config.GA_MEASUREMENT_ID),
    }),
  );
  app.use(refuseCompressedBodies);
  app.use(healthRouter(deps));
  app.use(metricsRouter(deps));
  // Before the body parsers below: public writes read their bodies through the public
  // intake (http/public-intake.ts), after its same-site, content-type and rate checks.
  app.use(analyticsRouter(deps));
  app.use(leadsRouter(deps));
  app.use(consentRouter(deps));
  app.use(gdprRouter(deps));
  // Its POST (RFC 8058 one-click) is answered without reading the body.
  app.use(marketingWithdrawalRouter(deps));
  // No body is ever inflated (decision 053): see refuseCompressedBodies.
  app.use(express.json({ limit: BODY_LIMIT, inflate: false }));
  app.use(express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 50, inflate: false }));

  app.use(smsStatusRouter(deps));
  app.use(guideRouter(deps));
  app.use(siteSettingsRouter(deps));
  app.use(liveStatsRouter(deps));
  app.use(visitSessionRouter(deps));
  app.use(challengeRouter(deps));
  app.use(googleAdsConversionsRouter(deps));
  app.use('/api/admin', adminRouter(deps));
  app.use('/api', apiNotFound);
  app.use(siteRouter(deps));
  app.use(pageNotFound);

  app.use(errorHandler);
  return app;
}
