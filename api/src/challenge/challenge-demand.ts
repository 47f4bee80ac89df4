import type { Redis } from 'ioredis';
import { AppError } from '../errors';
import { createRateLimit, type RateLimit } from '../http/rate-limit';

export type ChallengeMode = 'auto' | 'always' | 'off';

export interface ChallengeDemandOptions {
  redis: Redis;
  keyPrefix: string;
  mode: ChallengeMode;
  windowSeconds: number;
  clientThreshold: number;
  globalThreshold: number;
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
 * (`auto`) once its client (an IPv4 address, an IPv6 /64) or all clients together have
 * sent more submissions in the window than their threshold. The counts are the rate
 * limits' fixed windows, shared by every API process through Redis, with their fallback
 * to each process's memory while Redis is down or slow.
 */
export function createChallengeDemand(options: ChallengeDemandOptions) {
  const window = (name: string, points: number): RateLimit =>
    createRateLimit({
      redis: options.redis,
      keyPrefix: `${options.keyPrefix}:${name}`,
      points,
      durationSeconds: options.windowSeconds,
    });
  const perClient = window('client', options.clientThreshold);
  const overall = window('all', options.globalThreshold);

  const busy = async (client: string, count: boolean) => {
    const [clientOver, globalOver] = await Promise.all([
      spent(count ? perClient.consume(client) : perClient.check(client)),
      spent(count ? overall.consume(GLOBAL_KEY) : overall.check(GLOBAL_KEY)),
    ]);
    return clientOver || globalOver;
  };

  return {
    mode: options.mode,
    /** Counts one submission of `client`; true when it must carry a solved challenge. */
    async countSubmission(client: string): Promise<boolean> {
      if (options.mode !== 'auto') return options.mode === 'always';
      return busy(client, true);
    },
    /** Whether `client`'s next submission would need a challenge now (counts nothing). */
    async requiredFor(client: string): Promise<boolean> {
      if (options.mode !== 'auto') return options.mode === 'always';
      return busy(client, false);
    },
  };
}

export type ChallengeDemand = ReturnType<typeof createChallengeDemand>;
