import { Router } from 'express';
import { consentSessionIdSchema, cookieConsentRequestSchema } from '@guida/shared/schemas/cookie-consent';
import type { ApiDeps } from '../dependencies';
import { notFound } from '../errors';
import { clampUserAgent, truncateIp } from '../http/client-ip';
import { publicIntake } from '../http/public-intake';
import { parseOrThrow } from '../http/validate';
import { latestCookieChoice, recordCookieChoice } from './consent.repo';

/** Four flags and a session id. */
const CONSENT_BODY_LIMIT = '2kb';
const NO_CHOICE = 'Nessuna scelta sui cookie registrata.';

/** GET and POST of the visitor's cookie choice (spec section 7). */
export function consentRouter(deps: ApiDeps) {
  const router = Router();
  const intake = publicIntake(deps, {
    name: 'cookie-consent',
    accepts: ['json'],
    bodyLimit: CONSENT_BODY_LIMIT,
    rateLimit: { points: 120, durationSeconds: 3600 },
  });

  router.get('/api/cookie-consent/:sessionId', async (req, res) => {
    // Only the spec's random ids: a short one would be guessable (400, not a lookup).
    const sessionId = parseOrThrow(consentSessionIdSchema, req.params.sessionId);
    const choice = await latestCookieChoice(deps.db, sessionId);
    if (!choice) throw notFound(NO_CHOICE);
    res.set('Cache-Control', 'no-store').json(choice);
  });

  router.post('/api/cookie-consent', ...intake, async (req, res) => {
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
