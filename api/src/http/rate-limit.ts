import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../errors';
import { clientKey, clientNetwork, type NetworkKind } from './client-ip';

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

/**
 * How many times a client's allowance its network gets (decision 053): an IPv6 /48 is one
 * site, so 16 of its /64s are plenty; an IPv4 /24 is 256 addresses of which many may be a
 * carrier's NAT for many honest phones, so it gets more.
 */
export interface NetworkAllowances {
  'ipv6-48': number;
  'ipv4-24': number;
}

export const networkAllowancesOf = (config: { RATE_LIMIT_IPV6_48_FACTOR: number; RATE_LIMIT_IPV4_24_FACTOR: number }): NetworkAllowances => ({
  'ipv6-48': config.RATE_LIMIT_IPV6_48_FACTOR,
  'ipv4-24': config.RATE_LIMIT_IPV4_24_FACTOR,
});

export interface ClientRateLimit {
  /**
   * Counts one hit (or `points`) of the client at `ip`, then of its network; throws a 429
   * AppError once either budget is spent.
   */
  consume(ip: string | undefined, points?: number): Promise<void>;
  /** Throws a 429 AppError if the client's or its network's budget is spent, counting nothing. */
  check(ip: string | undefined): Promise<void>;
}

/**
 * A per-client limit: `points` per window for the client's key (an IPv4 address, an IPv6
 * /64) and, above it, a multiple of them for its network (an IPv4 /24, an IPv6 /48), so
 * the 65,536 /64s of one /48 are not 65,536 budgets. The network is charged only for what
 * its client was allowed: one client over its own limit cannot spend its neighbours'
 * budget (behind a carrier's NAT those are honest phones).
 */
export function createClientRateLimit(options: {
  redis: Redis;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
  networks: NetworkAllowances;
}): ClientRateLimit {
  const limit = (keyPrefix: string, points: number) =>
    createRateLimit({ redis: options.redis, keyPrefix, points, durationSeconds: options.durationSeconds });
  const perClient = limit(options.keyPrefix, options.points);
  const perNetwork: Record<NetworkKind, RateLimit> = {
    'ipv6-48': limit(`${options.keyPrefix}:ipv6-48`, options.points * options.networks['ipv6-48']),
    'ipv4-24': limit(`${options.keyPrefix}:ipv4-24`, options.points * options.networks['ipv4-24']),
  };
  return {
    async consume(ip, points) {
      await perClient.consume(clientKey(ip), points);
      const network = clientNetwork(ip);
      if (network) await perNetwork[network.kind].consume(network.key, points);
    },
    async check(ip) {
      const network = clientNetwork(ip);
      await Promise.all([perClient.check(clientKey(ip)), network ? perNetwork[network.kind].check(network.key) : undefined]);
    },
  };
}
