import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from '@guida/shared/server/redis';

/**
 * SMS_RATE_PER_SECOND, shared by every worker process through Redis, taken when an SMS
 * is about to go to the provider rather than when its job starts: an SMS an SMS budget
 * holds (decision 025) costs no provider call, so it must not take a place of the rate
 * either, or a flood of held junk would delay every honest SMS behind it.
 */
export function createSendRate(redis: Redis, prefix: string, perSecond: number) {
  /** One place in the current second, or false when there is none (then wait for the next). */
  async function take() {
    const now = Date.now();
    const key = `${prefix}:sms-rate:${Math.floor(now / 1000)}`;
    const results = await redis.multi().incr(key).pexpire(key, 2000).exec();
    const count = Number(results?.[0]?.[1]);
    return { taken: count <= perSecond, waitMs: 1000 - (now % 1000) };
  }

  /**
   * Waits for a place, at most `maxWaitMs` (well inside the claim timeout, so the SMS
   * claimed meanwhile is never taken over as abandoned); false when none came.
   */
  return async function waitForSendSlot(maxWaitMs: number) {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const { taken, waitMs } = await take();
      if (taken) return true;
      if (Date.now() + waitMs > deadline) return false;
      // Spread over the next second, so the waiting jobs do not all ask at its first millisecond.
      await sleep(waitMs + Math.floor(Math.random() * 50));
    }
  };
}
