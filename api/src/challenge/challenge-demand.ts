import type { Redis } from 'ioredis';
import { AppError } from '../errors';
import { createClientRateLimit, createRateLimit, type NetworkAllowances } from '../http/rate-limit';

export type ChallengeMode = 'auto' | 'always' | 'off';

export interface ChallengeDemandOptions {
  redis: Redis;
  keyPrefix: string;
  mode: ChallengeMode;
  windowSeconds: number;
  clientThreshold: number;
  globalThreshold: number;
  /** The client's network gets this many times its threshold (decision 053). */
  networks: NetworkAllowances;
}

const GLOBAL_KEY = 'all';

/** Whether a limit's budget is spent: its 429 is the answer "over the threshold". */
async function spent(attempt: Promise<void>): Promise<boolean> {
  try {
    await attempt;
    return false;
  } catch (error) {
    if (error instanceof AppError && error.status === 429) return true;
    throw error;
  }
}

/**
 * Decides whether a form submission must carry a solved challenge: always, never, or
 * (`auto`) once its client (an IPv4 address, an IPv6 /64), its client's network (an IPv4
 * /24, an IPv6 /48, with a multiple of the client's threshold) or all clients together
 * have sent more submissions in the window than their threshold. The counts are the rate
 * limits' fixed windows, shared by every API process through Redis, with their fallback
 * to each process's memory while Redis is down or slow.
 */
export function createChallengeDemand(options: ChallengeDemandOptions) {
  const perClient = createClientRateLimit({
    redis: options.redis,
    keyPrefix: `${options.keyPrefix}:client`,
    points: options.clientThreshold,
    durationSeconds: options.windowSeconds,
    networks: options.networks,
  });
  const overall = createRateLimit({
    redis: options.redis,
    keyPrefix: `${options.keyPrefix}:all`,
    points: options.globalThreshold,
    durationSeconds: options.windowSeconds,
  });

  const busy = async (ip: string | undefined, count: boolean) => {
    const [clientOver, globalOver] = await Promise.all([
      spent(count ? perClient.consume(ip) : perClient.check(ip)),
      spent(count ? overall.consume(GLOBAL_KEY) : overall.check(GLOBAL_KEY)),
    ]);
    return clientOver || globalOver;
  };

  return {
    mode: options.mode,
    /** Counts one submission from `ip`; true when it must carry a solved challenge. */
    async countSubmission(ip: string | undefined): Promise<boolean> {
      if (options.mode !== 'auto') return options.mode === 'always';
      return busy(ip, true);
    },
    /** Whether the next submission from `ip` would need a challenge now (counts nothing). */
    async requiredFor(ip: string | undefined): Promise<boolean> {
      if (options.mode !== 'auto') return options.mode === 'always';
      return busy(ip, false);
    },
  };
}

export type ChallengeDemand = ReturnType<typeof createChallengeDemand>;
