import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

/**
 * argon2id with OWASP's recommended minimum cost (19 MiB, 2 iterations), as a PHC string
 * ($argon2id$v=19$m=19456,t=2,p=1$salt$hash) that any argon2 library verifies. WebAssembly
 * rather than a native addon: the addon's prebuilt binary crashed on our machines (see
 * docs/decisions/007-argon2-in-webassembly.md).
 */
const COST = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

export const hashPassword = (password: string) =>
  argon2id({ ...COST, password, salt: randomBytes(16), outputType: 'encoded' });

// Verified when the username is unknown, so the answer takes as long as for a real user.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | undefined, password: string) {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password-0000');
    await argon2Verify({ password, hash: await dummyHash });
    return false;
  }
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}
