import type { RequestHandler } from 'express';
import { answeredErrorCode } from '../http/error-handler';
import type { ApiMetrics } from './api-metrics';

/**
 * Counts every answer of the lead route once it is sent: accepted, or refused with the
 * code the error handler answered with, or the bare status when no handler
 * of ours answered.
 */
export function countLeadOutcome(metrics: ApiMetrics): RequestHandler {
  return (_req, res, next) => {
    res.once('finish', () => {
      if (res.statusCode < 400) metrics.leadAccepted();
      else metrics.leadRefused(answeredErrorCode(res) ?? `http_${res.statusCode}`);
    });
    next();
  };
}
