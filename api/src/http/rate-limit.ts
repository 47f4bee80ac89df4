import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';

export interface RateLimit {
  /** Counts one hit for `key`; throws a 429 AppError once the budget is spent. */
  consume(key: string): Promise<void>;
  /** Throws a 429 AppError if `key` has spent its budget, without counting a hit. */
  check(key: string): Promise<void>;
  /** Counts one hit (a failure) without refusing anything now. */
  count(key: string): Promise<void>;
  /** Forgets `key` (e.g. a successful login clears its failures). */
  reset(key: string): Promise<void>;
}

/**
 * A fixed-window limit shared by every API process through Redis. While Redis is
 * unreachable each process falls back to its own in-memory counter, so requests keep
 * being limited and are never refused because of the outage.
 */
export function createRateLimit(options: {
  redis: Redis;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}): RateLimit {
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({
      keyPrefix: `${options.keyPrefix}:memory`,
      points: options.points,
      duration: options.durationSeconds,
    }),
  });
  const refuse = (result: RateLimiterRes) => tooManyRequests(Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw refuse(rejection);
        throw rejection;
      }
    },
    async check(key) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= options.points) throw refuse(state);
    },
    async count(key) {
      await limiter.consume(key).catch((rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      });
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
