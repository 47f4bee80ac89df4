import { describe, expect, it } from 'vitest';
import { retryDelay } from './start-workers';
import { classifyTwilioError } from './providers/twilio-sms-provider';

describe('retry delays', () => {
  it('double each attempt within ±25 % jitter and stop growing at 6 hours', () => {
    expect(retryDelay(2000, 1, 0.5)).toBe(2000);
    expect(retryDelay(2000, 2, 0.5)).toBe(4000);
    expect(retryDelay(2000, 5, 0.5)).toBe(32_000);
    expect(retryDelay(2000, 3, 0)).toBe(6000);
    expect(retryDelay(2000, 3, 1)).toBe(10_000);
    expect(retryDelay(60_000, 30, 0.5)).toBe(6 * 3600 * 1000);
  });

  it('spread CRM retries over hours with the default base', () => {
    const total = Array.from({ length: 9 }, (_, i) => retryDelay(60_000, i + 1, 0.5)).reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(8);
  });
});

describe('Twilio errors', () => {
  it('are permanent for 400, rate limits for 429, transient otherwise', () => {
    expect(classifyTwilioError({ status: 400, code: 21211, message: 'invalid' })).toMatchObject({
      kind: 'permanent',
      code: '21211',
    });
    expect(classifyTwilioError({ status: 429, code: 20429, message: 'slow' }).kind).toBe('rate-limited');
    expect(classifyTwilioError({ status: 503, message: 'down' })).toMatchObject({ kind: 'transient', code: 'http-503' });
    expect(classifyTwilioError(new Error('socket hang up')).kind).toBe('transient');
  });
});
