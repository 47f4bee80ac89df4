import { Secret, TOTP } from 'otpauth';

const PERIOD_MS = 30_000;

/** The code an authenticator app shows for `secret` (base32) at `atMs`: RFC 6238, SHA-1, 6 digits, 30 s. */
export const authenticatorCode = (secret: string, atMs: number) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_MS / 1000, secret: Secret.fromBase32(secret) }).generate({ timestamp: atMs });

/**
 * A test's authenticator app: each `nextCode()` is a code this secret has not given before,
 * as a person would wait for a new one (the server accepts each code once). It takes the
 * previous, current or next step (the server accepts one either side of its own), the
 * previous only with `marginMs` left before the step ends, so the code is still inside the
 * window when the server checks it; once those are spent it waits for the clock.
 */
export function testAuthenticator(secret: string, options: { clock?: () => number; marginMs?: number } = {}) {
  const clock = options.clock ?? Date.now;
  const marginMs = options.marginMs ?? 5_000;
  let lastStep = Number.NEGATIVE_INFINITY;
  return {
    secret,
    async nextCode(): Promise<string> {
      for (;;) {
        const now = clock();
        const current = Math.floor(now / PERIOD_MS);
        const earliest = (current + 1) * PERIOD_MS - now > marginMs ? current - 1 : current;
        const step = Math.max(earliest, lastStep + 1);
        if (step <= current + 1) {
          lastStep = step;
          return authenticatorCode(secret, step * PERIOD_MS);
        }
        await new Promise((resolve) => setTimeout(resolve, (current + 1) * PERIOD_MS - now + 50));
      }
    },
  };
}

export type TestAuthenticator = ReturnType<typeof testAuthenticator>;
