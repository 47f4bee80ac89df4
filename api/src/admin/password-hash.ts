import argon2 from 'argon2';

/** argon2id with OWASP's recommended minimum cost (19 MiB, 2 iterations). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

// Verified when the username is unknown, so the answer takes as long as for a real user.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | undefined, password: string) {
  if (!hash) {
    dummyHash ??= hashPassword('not-a-real-password-0000');
    await argon2.verify(await dummyHash, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
