import { Router } from 'express';
import { consentSessionIdSchema, cookieConsentRequestSchema } from '@guida/shared/schemas/cookie-consent';
import type { ApiDeps } from '../dependencies';
import { notFound } from '../errors';
import { clampUserAgent, truncateIp, clientKey } from '../http/client-ip';
import { createRateLimit } from '../http/rate-limit';
import { parseOrThrow } from '../http/validate';
import { latestCookieChoice, recordCookieChoice } from './consent.repo';

const NO_CHOICE = 'Nessuna scelta sui cookie registrata.';

/** GET and POST of the visitor's cookie choice (spec section 7). */
export function consentRouter(deps: ApiDeps) {
  const router = Router();
  const perIp = createRateLimit({
    redis: deps.redis,
    keyPrefix: `${deps.config.REDIS_KEY_PREFIX}:rl:cookie-consent`,
    points: 120,
    durationSeconds: 3600,
  });

  router.get('/api/cookie-consent/:sessionId', async (req, res) => {
    // Only the spec's random ids: a short one would be guessable (400, not a lookup).
    const sessionId = parseOrThrow(consentSessionIdSchema, req.params.sessionId);
    const choice = await latestCookieChoice(deps.db, sessionId);
    if (!choice) throw notFound(NO_CHOICE);
    res.set('Cache-Control', 'no-store').json(choice);
  });

  router.post('/api/cookie-consent', async (req, res) => {
    await perIp.consume(clientKey(req.ip));
    const choice = parseOrThrow(cookieConsentRequestSchema, req.body);
    await recordCookieChoice(deps.db, {
      ...choice,
      ipAddress: truncateIp(req.ip),
      userAgent: clampUserAgent(req.get('user-agent')),
    });
    res.status(201).json({
      essential: true,
      analytics: choice.analytics,
      marketing: choice.marketing,
      preferences: choice.preferences,
    });
  });
  return router;
}
