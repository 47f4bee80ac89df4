import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * argon2id with OWASP's recommended minimum cost (19 MiB, 2 iterations), as a PHC string
 * ($argon2id$v=19$m=19456,t=2,p=1$salt$hash) that any argon2 library verifies. The native
 * @node-rs/argon2 runs each hash on libuv's thread pool, so the event loop keeps answering
 * other requests meanwhile (see docs/decisions/027-admin-login-that-cannot-be-used-against-the-admin.md).
 */
/** Algorithm.Argon2id: a const enum, which our isolated-module build cannot read by name. */
const ARGON2ID = 2 as Algorithm;
const COST = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export const hashPassword = (password: string) => hash(password, COST);

// Verified when the username is unknown, so the answer takes as long as for a real user.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | undefined, password: string) {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-real-password-0000');
    await verify(await dummyHash, password);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * At most `slots` verifications at a time in this process (each holds a thread of the pool
 * and 19 MiB), plus `reservedSlots` that only callers marked as trusted may use, so a flood
 * of strangers' attempts cannot keep a known device from signing in. `tryAcquire` answers
 * null when no slot is free: the caller refuses instead of queueing.
 */
export function verificationSlots(slots: number, reservedSlots: number) {
  let busy = 0;
  return {
    tryAcquire(trusted: boolean): (() => void) | null {
      if (busy >= slots + (trusted ? reservedSlots : 0)) return null;
      busy += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        busy -= 1;
      };
    },
  };
}
