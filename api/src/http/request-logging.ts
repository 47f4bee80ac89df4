import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { Level } from 'pino';
import type { Logger } from '@guida/shared/server/logger';

// Augments 'http' (not 'node:http'): express's request type extends http.IncomingMessage.
declare module 'http' {
  interface IncomingMessage {
    /** The request id: X-Request-Id from a proxy, else generated. */
    id: string;
    /** A logger whose lines carry the request (id, method, path). */
    log: Logger;
  }
}

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;
// Polled every few seconds; a refused scrape logs its own warning.
const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Path without query string, with personal tokens and session ids masked: never personal data in logs. */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path
    .replace(/^\/g\/[^/]+/, '/g/:token')
    .replace(/^\/gdpr\/(conferma|export)\/[^/]+/, '/gdpr/$1/:token')
    .replace(/^\/api\/cookie-consent\/[^/]+/, '/api/cookie-consent/:sessionId');
}

function levelFor(statusCode: number): Level {
  if (statusCode >= 500) return 'error';
  return statusCode >= 400 ? 'warn' : 'info';
}

/**
 * One log line per request with a request id (taken from X-Request-Id when a proxy set
 * one, else generated), echoed back in the X-Request-Id header. The request's child
 * logger is made only when something logs: at the production level most requests log
 * nothing, and a child logger per request was a measurable share of the API's CPU.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    // The original URL: routers rewrite req.url while they match.
    const path = loggablePath(req.url);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ req: { id, method: req.method, path } })),
    });
    if (UNLOGGED_PATHS.has(path)) {
      next();
      return;
    }

    const startedAt = performance.now();
    const logOutcome = (message: string) => {
      const level = levelFor(res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Math.round(performance.now() - startedAt);
      req.log[level]({ res: { statusCode: res.statusCode }, responseTime }, message);
    };
    const onFinish = () => {
      res.off('close', onClose);
      logOutcome('request completed');
    };
    const onClose = () => {
      res.off('finish', onFinish);
      // The client went away before the answer was complete.
      if (!res.writableFinished) logOutcome('request aborted');
    };
    res.once('finish', onFinish);
    res.once('close', onClose);
    next();
  };
}
