import type { ApiDeps } from '../dependencies';
import { networkAllowancesOf } from '../http/rate-limit';
import { createChallengeDemand } from './challenge-demand';
import { createProofOfWork } from './proof-of-work';
import { createUsedChallenges } from './used-challenges';

/**
 * The challenge's parts, one set per app: the lead and data-rights routes and the
 * challenge endpoints share the in-memory fallbacks of their Redis counters and used ids.
 */
function createChallengeGate(deps: ApiDeps) {
  const { config } = deps;
  const keyPrefix = `${config.REDIS_KEY_PREFIX}:challenge`;
  return {
    demand: createChallengeDemand({
      redis: deps.redis,
      keyPrefix: `${keyPrefix}:submissions`,
      mode: config.CHALLENGE_MODE,
      windowSeconds: config.CHALLENGE_WINDOW_SECONDS,
      clientThreshold: config.CHALLENGE_CLIENT_THRESHOLD,
      globalThreshold: config.CHALLENGE_GLOBAL_THRESHOLD,
      networks: networkAllowancesOf(config),
    }),
    proofOfWork: createProofOfWork({ sessionSecret: config.SESSION_SECRET, cost: config.CHALLENGE_COST }),
    used: createUsedChallenges({ redis: deps.redis, keyPrefix: `${keyPrefix}:used` }),
  };
}

export type ChallengeGate = ReturnType<typeof createChallengeGate>;

const gates = new WeakMap<ApiDeps, ChallengeGate>();

export function challengeGate(deps: ApiDeps): ChallengeGate {
  let gate = gates.get(deps);
  if (!gate) {
    gate = createChallengeGate(deps);
    gates.set(deps, gate);
  }
  return gate;
}
