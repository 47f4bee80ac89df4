import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { serviceUnavailable } from '../errors';

/**
 * Server-side admin sessions in Redis. The browser holds only a random id (httpOnly,
 * SameSite=Strict, Secure over https); Redis holds the session under an HMAC of that id,
 * so its keys alone open nothing. A session ends after `idleSeconds` without anything the
 * admin did (a request marked as background does not count, decision 054) and in any case
 * at its absolute expiry; the key's TTL follows the idle limit, so idle sessions leave Redis.
 */
export interface AdminSessionData {
  userId: number;
  username: string;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
  /** Which password the session was opened with (see `passwordStamp`). */
  passwordStamp: string;
  /** The last request the admin made themselves (ms): the idle limit counts from it. */
  lastActivityAt: number;
  /**
   * When the second factor the session was opened with was enrolled (ms); null when it was
   * opened with ADMIN_SECOND_FACTOR=off. A reset, or a new enrolment, ends the session.
   */
  secondFactorAt: number | null;
}

export interface SessionOptions {
  redis: Redis;
  prefix: string;
  secret: string;
  idleSeconds: number;
  maxSeconds: number;
  secure: boolean;
  /** The clock (ms); tests move it. */
  now: () => number;
}

const COOKIE = 'guida_admin';

function cookieName(secure: boolean) {
  // The __Host- prefix makes browsers refuse the cookie unless Secure, path=/ and no Domain.
  return secure ? `__Host-${COOKIE}` : COOKIE;
}

/** The cookie's value; undefined when absent or not valid percent-encoding (treated as no cookie). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * A keyed digest of the user's stored password hash. A session (and a known device)
 * remembers the stamp it was opened with; a new password gives a new hash (new salt), so
 * every earlier session stops matching at once, however the password was changed.
 */
export function passwordStamp(secret: string, passwordHash: string) {
  return createHmac('sha256', secret).update(`password:${passwordHash}`).digest('base64url').slice(0, 22);
}

export function createSessionStore(options: SessionOptions) {
  const name = cookieName(options.secure);
  const keyOf = (id: string) =>
    `${options.prefix}:admin-session:${createHmac('sha256', options.secret).update(id).digest('hex')}`;

  const guarded = async <T>(operation: () => Promise<T>) => {
    try {
      return await operation();
    } catch {
      throw serviceUnavailable();
    }
  };

  return {
    async create(
      res: Response,
      user: { id: number; username: string; password: string },
      secondFactorAt: Date | null,
    ): Promise<AdminSessionData> {
      const id = randomBytes(32).toString('base64url');
      const now = options.now();
      const session: AdminSessionData = {
        userId: user.id,
        username: user.username,
        csrfToken: randomBytes(32).toString('base64url'),
        createdAt: now,
        expiresAt: now + options.maxSeconds * 1000,
        passwordStamp: passwordStamp(options.secret, user.password),
        lastActivityAt: now,
        secondFactorAt: secondFactorAt?.getTime() ?? null,
      };
      await guarded(() => options.redis.set(keyOf(id), JSON.stringify(session), 'EX', options.idleSeconds));
      res.cookie(name, id, {
        httpOnly: true,
        secure: options.secure,
        sameSite: 'strict',
        path: '/',
        maxAge: options.maxSeconds * 1000,
      });
      return session;
    },

    /**
     * The valid session of this request; null when none, unknown, idle for `idleSeconds` or
     * past its absolute expiry. Only a request of the admin's own (`activity`) renews it: a
     * background poll reads the session and leaves its idle clock running.
     */
    async read(req: Request, { activity }: { activity: boolean }): Promise<AdminSessionData | null> {
      const id = readCookie(req, name);
      if (!id) return null;
      const raw = await guarded(() => options.redis.get(keyOf(id)));
      if (!raw) return null;
      const session = JSON.parse(raw) as AdminSessionData;
      const now = options.now();
      // Sessions stored before the idle clock had none: their last activity is their start.
      const lastActivityAt = session.lastActivityAt ?? session.createdAt;
      if (now >= session.expiresAt || now - lastActivityAt >= options.idleSeconds * 1000) {
        await guarded(() => options.redis.del(keyOf(id)));
        return null;
      }
      if (activity) {
        session.lastActivityAt = now;
        // XX: a session signed out meanwhile stays gone.
        await guarded(() => options.redis.set(keyOf(id), JSON.stringify(session), 'EX', options.idleSeconds, 'XX'));
      }
      return session;
    },

    /** False once the user's password changed after the session was opened. */
    openedWithPassword(session: AdminSessionData, passwordHash: string) {
      return sameToken(session.passwordStamp, passwordStamp(options.secret, passwordHash));
    },

    /** Ends this request's session in Redis; its cookie opens nothing from now on. */
    async forget(req: Request) {
      const id = readCookie(req, name);
      if (id) await guarded(() => options.redis.del(keyOf(id)));
    },

    async destroy(req: Request, res: Response) {
      await this.forget(req);
      res.clearCookie(name, { path: '/', httpOnly: true, secure: options.secure, sameSite: 'strict' });
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export function sameToken(given: string | undefined, expected: string) {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
