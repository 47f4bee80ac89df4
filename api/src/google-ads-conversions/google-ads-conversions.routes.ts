import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { GOOGLE_ADS_EXPORT_PATH, googleAdsMessages } from '@guida/shared/google-ads-conversions';
import type { ApiDeps } from '../dependencies';
import { AppError, forbidden, notFound } from '../errors';
import { createClientRateLimit, networkAllowancesOf } from '../http/rate-limit';
import { basicAuthCheck } from './basic-auth';
import { googleAdsConversionsFile } from './google-ads-conversions.service';

/**
 * Fetches per client (an IPv4 address, an IPv6 /64) per hour: Google fetches once a
 * schedule (at most every few hours), a person trying the URL a few times; a scanner
 * guessing passwords gets 429s long before a 16-character password is at risk.
 */
const FETCHES_PER_CLIENT_PER_HOUR = 30;
const REALM = 'Basic realm="Conversioni Google Ads", charset="UTF-8"';

/**
 * GET /api/conversions/google-ads.csv: the file of Google Ads' scheduled offline conversion
 * import (decision 062). Absent (404) until both GOOGLE_ADS_EXPORT_USERNAME and _PASSWORD
 * are set; then rate-limited, HTTPS only in production (behind TRUST_PROXY's proxy, as
 * `req.secure` says), and only with those credentials (HTTP basic auth, compared in
 * constant time). Never cached: each fetch is the file as of now.
 */
export function googleAdsConversionsRouter(deps: ApiDeps) {
  const router = Router();
  const { config } = deps;
  const username = config.GOOGLE_ADS_EXPORT_USERNAME;
  const password = config.GOOGLE_ADS_EXPORT_PASSWORD;
  if (!username || !password) {
    router.get(GOOGLE_ADS_EXPORT_PATH, () => {
      throw notFound();
    });
    return router;
  }
  const production = config.NODE_ENV === 'production';
  const accepts = basicAuthCheck({ username, password });
  const perClient = createClientRateLimit({
    redis: deps.redis,
    keyPrefix: `${config.REDIS_KEY_PREFIX}:rl:google-ads-export`,
    points: FETCHES_PER_CLIENT_PER_HOUR,
    durationSeconds: 3600,
    networks: networkAllowancesOf(config),
  });

  router.get(GOOGLE_ADS_EXPORT_PATH, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    await perClient.consume(req.ip);
    if (production && !req.secure) {
      deps.metrics.googleAdsFetched('insecure');
      req.log.warn('Google Ads conversions requested over plain HTTP');
      throw forbidden(googleAdsMessages.httpsRequired);
    }
    const authorization = req.get('authorization');
    if (!accepts(authorization)) {
      deps.metrics.googleAdsFetched(authorization ? 'wrong_credentials' : 'no_credentials');
      if (authorization) req.log.warn('Google Ads conversions requested with wrong credentials');
      res.set('WWW-Authenticate', REALM);
      throw new AppError(401, 'unauthorized', googleAdsMessages.unauthorized);
    }
    res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'inline; filename="google-ads.csv"' });
    // A HEAD (a check of the URL) gets the headers only, and records no fetch.
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    deps.metrics.googleAdsFetched('served');
    await pipeline(googleAdsConversionsFile(deps, { fetchedByGoogle: true }), res).catch((error: unknown) => {
      // Headers are gone: Google sees a broken file and fetches again at its next run.
      deps.logger.error({ err: (error as Error).message }, 'Google Ads conversions file interrupted');
      res.destroy();
    });
  });
  return router;
}
