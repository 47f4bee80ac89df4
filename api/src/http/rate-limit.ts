import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';

export interface RateLimit {
  /** Counts one hit (or `points`) for `key`; throws a 429 AppError once the budget is spent. */
  consume(key: string, points?: number): Promise<void>;
  /** Throws a 429 AppError if `key` has spent its budget, without counting a hit. */
  check(key: string): Promise<void>;
  /** Gives back one hit counted by `consume` (an attempt that turned out not to count). */
  refund(key: string): Promise<void>;
}

/**
 * A local Redis answers in well under a millisecond. One that neither answers nor drops
 * the connection (a stopped process, a network that loses packets) would hold the request
 * until the connection dies, seconds or minutes later.
 */
const REDIS_ANSWER_TIMEOUT_MS = 300;
const LATE = Symbol('late');

/** Redis's answer, or the in-memory counter's when Redis has not answered in time. */
export async function inTime<T>(fromRedis: Promise<T>, fromMemory: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), REDIS_ANSWER_TIMEOUT_MS);
  });
  try {
    const first = await Promise.race([fromRedis, late]);
    if (first !== LATE) return first;
  } finally {
    clearTimeout(timer);
  }
  fromRedis.catch(() => undefined);
  return fromMemory();
}

/**
 * A fixed-window limit shared by every API process through Redis. While Redis is
 * unreachable, or does not answer within 300 ms, each process falls back to its own
 * in-memory counter, so requests keep being limited and are never refused or held
 * because of the outage.
 */
export function createRateLimit(options: {
  redis: Redis;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}): RateLimit {
  const memory = new RateLimiterMemory({
    keyPrefix: `${options.keyPrefix}:memory`,
    points: options.points,
    duration: options.durationSeconds,
  });
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
  const consume = (key: string, points = 1) => inTime(limiter.consume(key, points), () => memory.consume(key, points));
  const refuse = (result: RateLimiterRes) => tooManyRequests(Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
  return {
    async consume(key, points) {
      try {
        await consume(key, points);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw refuse(rejection);
        throw rejection;
      }
    },
    async check(key) {
      const state = await inTime(limiter.get(key), () => memory.get(key));
      if (state && state.consumedPoints >= options.points) throw refuse(state);
    },
    async refund(key) {
      await inTime(limiter.reward(key, 1), () => memory.reward(key, 1));
    },
  };
}
