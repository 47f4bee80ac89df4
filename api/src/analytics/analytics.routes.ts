import type express from 'express';
import { Router } from 'express';
import {
  ANALYTICS_EVENT_TYPES,
  analyticsBatchSchema,
  analyticsEventSchemas,
  type AnalyticsEvent,
} from '@guida/shared/schemas/analytics';
import { analyticsMessages, apiMessages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { clientKey, truncateIp } from '../http/client-ip';
import { createRateLimit } from '../http/rate-limit';
import { publicIntake } from '../http/public-intake';
import { parseOrThrow } from '../http/validate';
import { createAnalyticsIntake } from './analytics.service';

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
  const perClientPerDay = createRateLimit({
    redis: deps.redis,
    keyPrefix: `${deps.config.REDIS_KEY_PREFIX}:rl:analytics-bytes`,
    points: deps.config.ANALYTICS_DAILY_MB_PER_CLIENT * 1024 * 1024,
    durationSeconds: 24 * 3600,
  });
  const stream = createAnalyticsIntake({
    redis: deps.redis,
    prefix: deps.config.REDIS_KEY_PREFIX,
    logger: deps.logger,
    maxStreamBytes: deps.config.ANALYTICS_STREAM_MAX_MB * 1024 * 1024,
  });

  /** Counts the body's bytes against the client's daily budget: 429 in Italian beyond it. */
  const chargeBytes = async (req: express.Request) => {
    // body-parser checked Content-Length against the body; a chunked body is measured.
    const bytes = Number(req.headers['content-length']) || Buffer.byteLength(JSON.stringify(req.body));
    try {
      await perClientPerDay.consume(clientKey(req.ip), bytes);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error;
      throw new AppError(429, 'analytics_budget_spent', analyticsMessages.dailyBudgetExceeded, error.details);
    }
  };

  const accept = async (req: express.Request, res: express.Response, events: AnalyticsEvent[]) => {
    await chargeBytes(req);
    try {
      const accepted = await stream.enqueue(events, { ipAddress: truncateIp(req.ip), clientKey: clientKey(req.ip) });
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
      await accept(req, res, [{ ...event, type } as AnalyticsEvent]);
    });
  }
  return router;
}
