import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Who may read `/metrics` (API and worker): nobody while METRICS_TOKEN is unset (the
 * endpoint then does not exist), else only a request with `Authorization: Bearer <token>`.
 * Both sides are hashed first, so the comparison takes the same time whatever the
 * length or content of what was sent.
 */
export function metricsAccess(token: string | undefined, authorization: string | undefined): 'off' | 'denied' | 'allowed' {
  if (!token) return 'off';
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(token)) ? 'allowed' : 'denied';
}

/**
 * Buckets (seconds) of the lead → SMS latency histograms: fine around the 2-minute
 * promise, and wide enough to show an outage that held SMS for hours.
 */
export const SMS_LATENCY_BUCKETS = [1, 2, 5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600, 21_600];
