import type express from 'express';
import { Router } from 'express';
import {
  ANALYTICS_EVENT_TYPES,
  analyticsBatchSchema,
  analyticsEventSchemas,
} from '@guida/shared/schemas/analytics';
import { apiMessages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { truncateIp } from '../http/client-ip';
import { publicIntake } from '../http/public-intake';
import { parseOrThrow } from '../http/validate';
import { enqueueAnalyticsEvents } from './analytics.service';

/** A batch of up to 100 events (the tracker sends JSON, sendBeacon included). */
const BATCH_BODY_LIMIT = '64kb';

/**
 * POST /api/analytics/{page-view,conversion,section-view,form-interaction} and /batch:
 * validated, answered 202 at once, stored by the worker. The intake reads a batch with its
 * own, larger body limit.
 */
export function analyticsRouter(deps: ApiDeps) {
  const router = Router();
  const intake = publicIntake(deps, {
    name: 'analytics',
    accepts: ['json'],
    bodyLimit: BATCH_BODY_LIMIT,
    rateLimit: { points: deps.config.ANALYTICS_RATE_LIMIT_PER_IP, durationSeconds: 60 },
  });

  const accept = async (req: express.Request, res: express.Response, events: Parameters<typeof enqueueAnalyticsEvents>[1]) => {
    try {
      const accepted = await enqueueAnalyticsEvents(
        { redis: deps.redis, prefix: deps.config.REDIS_KEY_PREFIX },
        events,
        { ipAddress: truncateIp(req.ip) },
      );
      res.status(202).json({ accepted });
    } catch (error) {
      req.log.warn({ err: (error as Error).message }, 'analytics events not queued');
      throw new AppError(503, 'service_unavailable', apiMessages.serviceUnavailable);
    }
  };

  router.post('/api/analytics/batch', ...intake, async (req, res) => {
    const { events } = parseOrThrow(analyticsBatchSchema, req.body);
    await accept(req, res, events);
  });

  for (const type of ANALYTICS_EVENT_TYPES) {
    router.post(`/api/analytics/${type}`, ...intake, async (req, res) => {
      const event = parseOrThrow(analyticsEventSchemas[type], req.body);
      await accept(req, res, [{ ...event, type } as Parameters<typeof enqueueAnalyticsEvents>[1][number]]);
    });
  }
  return router;
}
