import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@guida/shared/server/logger';

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Path without query string, with personal tokens masked: never personal data in logs. */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path
    .replace(/^\/g\/[^/]+/, '/g/:token')
    .replace(/^\/gdpr\/(conferma|export)\/[^/]+/, '/gdpr/$1/:token');
}

/**
 * One log line per request with a request id (taken from X-Request-Id when a proxy set
 * one, else generated), echoed back in the X-Request-Id header.
 */
export function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({
        id: req.id,
        method: req.method,
        path: loggablePath(req.url),
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
}
