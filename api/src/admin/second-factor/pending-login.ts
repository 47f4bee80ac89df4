import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { serviceUnavailable } from '../../errors';
import { readCookie } from '../admin-session';

/**
 * "Password verified, second factor pending": a short-lived state between the login's two
 * steps, under a cookie and a Redis key of its own. No admin route reads either (they read
 * the session only), so a password alone opens nothing; the second step turns it into a
 * session and deletes it.
 */
export interface PendingLogin {
  userId: number;
  username: string;
  /** The password it was verified with (admin-session.ts `passwordStamp`): a new password ends it. */
  passwordStamp: string;
  /** `enrol`: the admin has no second factor yet and adds one now; `verify`: the admin gives a code. */
  stage: 'enrol' | 'verify';
}

const COOKIE = 'guida_admin_pending';
/** Long enough to open the app (or, at enrolment, to install one and scan the code). */
export const PENDING_LOGIN_SECONDS = 10 * 60;

export function pendingLogins(options: { redis: Redis; prefix: string; secret: string; secure: boolean }) {
  const name = options.secure ? `__Host-${COOKIE}` : COOKIE;
  const keyOf = (id: string) =>
    `${options.prefix}:admin-login-pending:${createHmac('sha256', options.secret).update(`pending:${id}`).digest('hex')}`;
  const cookieOptions = { httpOnly: true, secure: options.secure, sameSite: 'strict', path: '/' } as const;
  const guarded = async <T>(operation: () => Promise<T>) => {
    try {
      return await operation();
    } catch {
      throw serviceUnavailable();
    }
  };

  return {
    /** A new pending login for this browser, in place of any earlier one. */
    async start(req: Request, res: Response, pending: PendingLogin) {
      const previous = readCookie(req, name);
      if (previous) await guarded(() => options.redis.del(keyOf(previous)));
      const id = randomBytes(32).toString('base64url');
      await guarded(() => options.redis.set(keyOf(id), JSON.stringify(pending), 'EX', PENDING_LOGIN_SECONDS));
      res.cookie(name, id, { ...cookieOptions, maxAge: PENDING_LOGIN_SECONDS * 1000 });
    },

    async read(req: Request): Promise<PendingLogin | null> {
      const id = readCookie(req, name);
      if (!id) return null;
      const raw = await guarded(() => options.redis.get(keyOf(id)));
      return raw ? (JSON.parse(raw) as PendingLogin) : null;
    },

    async finish(req: Request, res: Response) {
      const id = readCookie(req, name);
      if (id) await guarded(() => options.redis.del(keyOf(id)));
      res.clearCookie(name, cookieOptions);
    },
  };
}

export type PendingLogins = ReturnType<typeof pendingLogins>;
