import { Router } from 'express';
import { apiMessages } from '@guida/shared/messages';
import { metricsAccess } from '@guida/shared/server/metrics-access';
import type { ApiDeps } from '../dependencies';
import { AppError, notFound } from '../errors';

/** GET /metrics for Prometheus: absent without METRICS_TOKEN, else only with that bearer token. */
export function metricsRouter(deps: ApiDeps) {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    const access = metricsAccess(deps.config.METRICS_TOKEN, req.get('authorization'));
    if (access === 'off') throw notFound();
    if (access === 'denied') {
      req.log.warn('metrics requested without the right token');
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError(401, 'unauthorized', apiMessages.metricsUnauthorized);
    }
    const text = await deps.metrics.read();
    res.set('Content-Type', deps.metrics.registry.contentType).set('Cache-Control', 'no-store').send(text);
  });
  return router;
}
