import express from 'express';
import { adminRouter } from '../admin/admin.routes';
import { consentRouter } from '../consent/consent.routes';
import { gdprAdminRouter } from '../gdpr/gdpr-admin.routes';
import { gdprRouter } from '../gdpr/gdpr.routes';
import { apiNotFound, errorHandler, pageNotFound } from '../http/error-handler';
import { requestLogging } from '../http/request-logging';
import { securityHeaders } from '../http/security-headers';
import { leadsRouter } from '../leads/leads.routes';
import { createTestApi } from './test-api';

/**
 * The test API with the data-rights routes mounted as app.ts is to mount them: the public
 * ones at the root, the admin ones under /api/admin behind the real admin guard (the admin
 * router's guard runs for every /api/admin path and falls through to them). Until app.ts
 * mounts them, the data-rights tests use this app.
 */
export async function createGdprTestApi(env: Record<string, string> = {}) {
  const api = await createTestApi(env);
  const { deps } = api;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.use(requestLogging(deps.logger));
  app.use(securityHeaders({ production: false, analytics: false }));
  app.use(express.json({ limit: '16kb' }));
  app.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  app.use(leadsRouter(deps));
  app.use(consentRouter(deps));
  app.use(gdprRouter(deps));
  app.use('/api/admin', adminRouter(deps));
  app.use('/api/admin', gdprAdminRouter(deps));
  app.use('/api', apiNotFound);
  app.use(pageNotFound);
  app.use(errorHandler);
  return { ...api, app };
}

export type GdprTestApi = Awaited<ReturnType<typeof createGdprTestApi>>;
