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
import { attributedEvents, visitSessionsOf } from '../experiments';
import { clientKey, truncateIp } from '../http/client-ip';
import { bodyBytesOf, publicIntake } from '../http/public-intake';
import { createClientRateLimit, networkAllowancesOf } from '../http/rate-limit';
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
  const perClientPerDay = createClientRateLimit({
    redis: deps.redis,
    keyPrefix: `${deps.config.REDIS_KEY_PREFIX}:rl:analytics-bytes`,
    points: deps.config.ANALYTICS_DAILY_MB_PER_CLIENT * 1024 * 1024,
    durationSeconds: 24 * 3600,
    networks: networkAllowancesOf(deps.config),
  });
  const stream = createAnalyticsIntake({
    redis: deps.redis,
    prefix: deps.config.REDIS_KEY_PREFIX,
    logger: deps.logger,
    maxStreamBytes: deps.config.ANALYTICS_STREAM_MAX_MB * 1024 * 1024,
  });

  /**
   * Counts the body's bytes, as the intake read them (never compressed: decision 053),
   * against the daily budget of the client and of its network: 429 in Italian beyond it.
   */
  const chargeBytes = async (req: express.Request) => {
    const bytes = bodyBytesOf(req) ?? Buffer.byteLength(JSON.stringify(req.body));
    try {
      await perClientPerDay.consume(req.ip, bytes);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error;
      throw new AppError(429, 'analytics_budget_spent', analyticsMessages.dailyBudgetExceeded, error.details);
    }
  };

  const sessions = visitSessionsOf(deps);

  /**
   * Queues the events under their visit's signed session (decision 051): its session id and
   * variants replace what the events name; without a valid one they count in no experiment.
   */
  const accept = async (req: express.Request, res: express.Response, events: AnalyticsEvent[], visitSession: string | null) => {
    await chargeBytes(req);
    const signed = attributedEvents(events, sessions.verify(visitSession));
    try {
      const accepted = await stream.enqueue(signed, { ipAddress: truncateIp(req.ip), clientKey: clientKey(req.ip) });
      res.status(202).json({ accepted });
    } catch (error) {
      req.log.warn({ err: (error as Error).message }, 'analytics events not queued');
      throw new AppError(503, 'service_unavailable', apiMessages.serviceUnavailable);
    }
  };

  router.post('/api/analytics/batch', ...intake, async (req, res) => {
    const { events, visitSession } = parseOrThrow(analyticsBatchSchema, req.body);
    await accept(req, res, events, visitSession);
  });

  for (const type of ANALYTICS_EVENT_TYPES) {
    router.post(`/api/analytics/${type}`, ...intake, async (req, res) => {
      const { visitSession, ...event } = parseOrThrow(analyticsEventSchemas[type], req.body);
      await accept(req, res, [{ ...event, type } as AnalyticsEvent], visitSession);
    });
  }
  return router;
}
