import { createHash, randomBytes } from 'node:crypto';
import { normaliseRecoveryCode, RECOVERY_CODE_COUNT } from '@guida/shared/schemas/admin';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 15 random bytes as 24 base32 characters: 120 bits, beyond guessing with or without limits. */
function newRecoveryCode() {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      code += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return code;
}

/** Ten new codes, as stored and compared (see `formatRecoveryCode` for how they are shown). */
export const newRecoveryCodes = () => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/** "abcdef-ghijkl-mnopqr-stuvwx": four groups of six, easier to copy by hand. */
export const formatRecoveryCode = (code: string) => code.match(/.{1,6}/g)!.join('-');

/**
 * What the database keeps of a code: SHA-256 of the user id and the code. A code has 120
 * random bits, so a fast hash is enough (ASVS 5.0 6.5.2: a slow salted hash is needed only
 * below 112 bits); the user id keeps one account's codes from opening another.
 */
export const recoveryCodeHash = (userId: number, typed: string) =>
  createHash('sha256').update(`admin-recovery:${userId}:${normaliseRecoveryCode(typed)}`).digest('hex');
