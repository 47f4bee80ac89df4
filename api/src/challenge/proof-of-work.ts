import { createHmac } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { isRecord } from '../http/public-intake';

/** The widget's bundled PBKDF2 worker solves it; no WebAssembly, nothing but Web Crypto. */
const ALGORITHM = 'PBKDF2/SHA-256';
/**
 * A derived key must start with this byte: 1 in 256 attempts does, so the browser makes
 * about 256 PBKDF2 derivations while the server verifies with one.
 */
const KEY_PREFIX = '00';
/** Long enough to fill in the form after the widget solved on focus, short for a hoard. */
export const CHALLENGE_LIFETIME_SECONDS = 600;
/** A payload is a base64 JSON of about 600 characters; anything far longer is not ours. */
const MAX_PAYLOAD_LENGTH = 4096;

export type Verdict = { valid: true; challengeId: string; expiresAt: number } | { valid: false };

/** The widget's `altcha` field: base64 of `{ challenge, solution }`, or null when it is not. */
function decodePayload(field: unknown): Payload | null {
  if (typeof field !== 'string' || field.length > MAX_PAYLOAD_LENGTH) return null;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(field, 'base64').toString('utf8'));
    if (!isRecord(decoded) || !isRecord(decoded.challenge) || !isRecord(decoded.solution)) return null;
    if (!isRecord(decoded.challenge.parameters)) return null;
    return decoded as unknown as Payload;
  } catch {
    return null;
  }
}

/**
 * Issues and checks altcha proof-of-work challenges, signed with a key of their own
 * derived from SESSION_SECRET (a signature can serve nothing else). Stateless: whether a
 * solution was already used is the caller's business (used-challenges.ts).
 */
export function createProofOfWork(options: { sessionSecret: string; cost: number }) {
  const hmacSignatureSecret = createHmac('sha256', options.sessionSecret).update('altcha-challenge').digest('hex');

  return {
    issue(): Promise<Challenge> {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: options.cost,
        keyPrefix: KEY_PREFIX,
        deriveKey,
        hmacSignatureSecret,
        expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_LIFETIME_SECONDS,
      });
    },

    /**
     * Whether `field` solves a challenge we issued that has not expired. The signature is
     * checked before the one key derivation, so forged payloads cost an HMAC only.
     */
    async verify(field: unknown): Promise<Verdict> {
      const payload = decodePayload(field);
      if (!payload) return { valid: false };
      const { parameters } = payload.challenge;
      try {
        const result = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret,
        });
        // A signed challenge always carries our nonce and expiry.
        if (!result.verified || typeof parameters.expiresAt !== 'number') return { valid: false };
        return { valid: true, challengeId: parameters.nonce, expiresAt: parameters.expiresAt };
      } catch {
        // Malformed fields the library refuses by throwing (a non-hex nonce, a bad counter).
        return { valid: false };
      }
    },
  };
}

export type ProofOfWork = ReturnType<typeof createProofOfWork>;
