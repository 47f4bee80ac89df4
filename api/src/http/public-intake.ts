import express, { type Request, type RequestHandler } from 'express';
import { apiMessages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { AppError, badRequest, forbidden } from '../errors';
import { createClientRateLimit, networkAllowancesOf } from './rate-limit';

/** The body types a public write may send. */
const BODY_TYPES = {
  json: 'application/json',
  /** Only where the no-JavaScript form posts: the one cross-site-capable type we still read. */
  form: 'application/x-www-form-urlencoded',
} as const;
export type PublicBodyType = keyof typeof BODY_TYPES;

export interface PublicIntakeOptions {
  /** Names the route's per-client rate-limit bucket in Redis (`<prefix>:rl:<name>`). */
  name: string;
  accepts: readonly PublicBodyType[];
  /** Largest body read, in body-parser notation ('16kb'); a bigger one is refused with 413. */
  bodyLimit: string;
  /**
   * Requests one client (an IPv4 address, an IPv6 /64) may make per window; its network (an
   * IPv4 /24, an IPv6 /48) makes a multiple of them (decision 053).
   */
  rateLimit: { points: number; durationSeconds: number };
}

/**
 * Whether a browser sent this request from another site's page. Sec-Fetch-Site is set by
 * the browser itself and no page script can change it, so where present it decides
 * (`same-origin`, `same-site` and `none` pass). Browsers without it still send Origin on a
 * POST: it must then be this site, as the request reached us or as PUBLIC_BASE_URL names
 * it (behind a proxy the request's own protocol may differ). Requests with neither header
 * (servers, scripts, tests) are judged on their content alone.
 */
export function isCrossSiteRequest(req: Request, publicOrigin: string): boolean {
  const fetchSite = req.get('sec-fetch-site');
  if (fetchSite) return fetchSite.toLowerCase() === 'cross-site';
  const origin = req.get('origin');
  if (origin === undefined) return false;
  return origin !== publicOrigin && origin !== `${req.protocol}://${req.get('host')}`;
}

/** A JSON object (not an array, not null): what every public write's body must be. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether the body comes compressed: a `Content-Encoding` other than identity (any case). */
const isCompressed = (req: Request) => {
  const encoding = req.get('content-encoding')?.trim().toLowerCase();
  return encoding !== undefined && encoding !== '' && encoding !== 'identity';
};

/**
 * No write of the app reads a compressed body (decision 053): 415 in Italian before any
 * check or limit counts it. No browser compresses what it posts (the site's tracker sends
 * plain JSON with fetch or sendBeacon, an HTML form cannot, nor does a mail client's
 * one-click withdrawal), and body-parser would inflate it: every limit measured on the
 * bytes received (the analytics byte budget) would count the compressed size of bodies
 * hundreds of times larger. Every parser also has `inflate: false`, should a route ever
 * be mounted before this.
 */
export const refuseCompressedBodies: RequestHandler = (req, _res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD' && isCompressed(req)) {
    throw new AppError(415, 'compressed_body', apiMessages.compressedBody);
  }
  next();
};

const bodyBytes = new WeakMap<Request, number>();

/** The size of the body the intake read, as parsed (never compressed): what a byte budget charges. */
export const bodyBytesOf = (req: Request): number | undefined => bodyBytes.get(req);

/** A plain HTML form's post (the no-JavaScript path, answered with a page or a redirect). */
export const isFormPost = (req: Request) =>
  req.is(BODY_TYPES.form) === BODY_TYPES.form;

/**
 * The one intake of every public write (lead, data-rights request, analytics, cookie
 * consent), in the order a request meets it (once the app refused a compressed body, 415):
 * the same-site check (403), the content type (415), the client's and its network's rate
 * limit (429, before any body is read), the body within its limit (413) and parsed (400),
 * and an object at its top (400). Routes add only their schema:
 *
 *   router.post(path, ...publicIntake(deps, { ... }), handler)
 *
 * A proof-of-work check (api/src/challenge) belongs after these handlers and before the
 * route's own: it then sees only same-site, rate-limited, parsed bodies.
 */
export function publicIntake(deps: ApiDeps, options: PublicIntakeOptions): RequestHandler[] {
  const { config } = deps;
  const publicOrigin = new URL(config.PUBLIC_BASE_URL).origin;
  const types = options.accepts.map((type) => BODY_TYPES[type]);
  const perClient = createClientRateLimit({
    redis: deps.redis,
    keyPrefix: `${config.REDIS_KEY_PREFIX}:rl:${options.name}`,
    points: options.rateLimit.points,
    durationSeconds: options.rateLimit.durationSeconds,
    networks: networkAllowancesOf(config),
  });
  // `inflate: false`: a compressed body is refused (415), should one get past refuseCompressedBodies.
  const read = { limit: options.bodyLimit, inflate: false, verify: (req: Request, _res: unknown, body: Buffer) => void bodyBytes.set(req, body.length) };
  const parsers = options.accepts.map((type) =>
    type === 'json'
      ? express.json({ ...read, strict: true, type: BODY_TYPES.json })
      : express.urlencoded({ ...read, extended: false, parameterLimit: 50, type: BODY_TYPES.form }),
  );

  const sameSite: RequestHandler = (req, _res, next) => {
    if (isCrossSiteRequest(req, publicOrigin)) {
      req.log.warn({ origin: req.get('origin'), fetchSite: req.get('sec-fetch-site') }, 'cross-site write refused');
      throw forbidden(apiMessages.crossSiteRequest);
    }
    next();
  };
  // text/plain and multipart are what another site's page can post without asking us
  // first (CORS "simple" requests): they are never read.
  const contentType: RequestHandler = (req, _res, next) => {
    if (!req.is(types)) throw new AppError(415, 'unsupported_content', apiMessages.unsupportedContentType);
    next();
  };
  const rateLimit: RequestHandler = async (req, _res, next) => {
    await perClient.consume(req.ip);
    next();
  };
  const objectBody: RequestHandler = (req, _res, next) => {
    if (!isRecord(req.body)) throw badRequest();
    next();
  };
  return [sameSite, contentType, rateLimit, ...parsers, objectBody];
}
