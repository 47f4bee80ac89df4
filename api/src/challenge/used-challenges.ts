import { CappedMap } from 'altcha-lib';
import type { Redis } from 'ioredis';
import { inTime } from '../http/rate-limit';

/** Ids a process remembers while Redis is away: a few MB at most. */
const MEMORY_CAPACITY = 100_000;

/**
 * Solutions are single-use: each challenge id is recorded (SET NX) until its challenge
 * expires, after which the signature check refuses it anyway. While Redis is down or does
 * not answer in time, each process records ids in memory instead, so a replay is still
 * refused by that process (and by every process once Redis is back for ids stored there).
 */
export function createUsedChallenges(options: { redis: Redis; keyPrefix: string }) {
  const memory = new CappedMap<string, number>({ maxSize: MEMORY_CAPACITY });

  const markInMemory = async (id: string, expiresAtMs: number) => {
    const until = memory.get(id);
    if (until !== undefined && until > Date.now()) return false;
    memory.set(id, expiresAtMs);
    return true;
  };

  return {
    /** Records the challenge as used; false when it already was. */
    async markUsed(challengeId: string, expiresAtSeconds: number): Promise<boolean> {
      const ttlSeconds = Math.max(1, Math.ceil(expiresAtSeconds - Date.now() / 1000));
      const expiresAtMs = expiresAtSeconds * 1000;
      const fromRedis = options.redis
        .set(`${options.keyPrefix}:${challengeId}`, '1', 'EX', ttlSeconds, 'NX')
        .then((answer) => answer === 'OK')
        .catch(() => markInMemory(challengeId, expiresAtMs));
      return inTime(fromRedis, () => markInMemory(challengeId, expiresAtMs));
    },
  };
}
