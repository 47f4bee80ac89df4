import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { passwordStamp, readCookie, sameToken } from './admin-session';

/**
 * "This browser signed in as this user before": a signed, httpOnly cookie set at every
 * successful login. It carries the user id, a random device id and the stamp of the
 * password it signed in with, so a new password forgets every device. It opens nothing by
 * itself; it only lets that browser's attempts be slowed down instead of locked out by
 * what strangers do with the username (see login-guard.ts).
 */
export interface KnownDevice {
  userId: number;
  deviceId: string;
}

const COOKIE = 'guida_admin_device';
const KEEP_DAYS = 180;

export function knownDevices(options: { secret: string; secure: boolean }) {
  // Same rules as the session cookie: __Host- over https.
  const name = options.secure ? `__Host-${COOKIE}` : COOKIE;
  const mac = (userId: number, deviceId: string, stamp: string) =>
    createHmac('sha256', options.secret)
      .update(`known-device:${userId}:${deviceId}:${stamp}`)
      .digest('base64url');

  return {
    /** The device of this request when its cookie is genuine and was set for `user`'s current password. */
    recognise(req: Request, user: { id: number; password: string } | undefined): KnownDevice | null {
      const value = readCookie(req, name);
      if (!value || !user) return null;
      const [userId, deviceId, signature] = value.split('.');
      if (Number(userId) !== user.id || !deviceId || !/^[\w-]{22}$/.test(deviceId)) return null;
      const expected = mac(user.id, deviceId, passwordStamp(options.secret, user.password));
      return sameToken(signature, expected) ? { userId: user.id, deviceId } : null;
    },

    /** Marks this browser as a known device of `user` (keeping its id if it had one). */
    remember(res: Response, user: { id: number; password: string }, device: KnownDevice | null) {
      const deviceId = device?.deviceId ?? randomBytes(16).toString('base64url');
      const signature = mac(user.id, deviceId, passwordStamp(options.secret, user.password));
      res.cookie(name, `${user.id}.${deviceId}.${signature}`, {
        httpOnly: true,
        secure: options.secure,
        sameSite: 'strict',
        path: '/',
        maxAge: KEEP_DAYS * 86_400_000,
      });
      return deviceId;
    },
  };
}
