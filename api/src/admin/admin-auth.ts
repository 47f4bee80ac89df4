import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { adminMessages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { AppError, forbidden } from '../errors';
import { findUserById } from './admin-users.repo';
import { sameToken, type AdminSessionData, type SessionStore } from './admin-session';

export interface AdminRequestContext {
  session: AdminSessionData;
  user: { id: number; username: string };
}

declare module 'express-serve-static-core' {
  interface Request {
    admin?: AdminRequestContext;
  }
}

export const notSignedIn = () => new AppError(401, 'not_signed_in', adminMessages.signedOut);

/**
 * Every admin route: a valid session opened with the user's current password (else 401),
 * a user who is still an admin in the database right now (else 403: revoking takes effect
 * at once).
 */
export function requireAdmin(deps: ApiDeps, sessions: SessionStore): RequestHandler {
  return async (req, _res, next) => {
    const session = await sessions.read(req);
    if (!session) throw notSignedIn();
    const user = await findUserById(deps.db, session.userId);
    if (!user || !sessions.openedWithPassword(session, user.password)) {
      // Deleted user, or a password changed since: this session ends for good.
      await sessions.forget(req);
      throw notSignedIn();
    }
    if (!user.is_admin) throw forbidden(adminMessages.forbidden);
    req.admin = { session, user: { id: user.id, username: user.username } };
    next();
  };
}

/** The admin context that requireAdmin put on the request. */
export function signedIn(req: Request) {
  if (!req.admin) throw notSignedIn();
  return req.admin;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes need the session's CSRF token in X-CSRF-Token (synchroniser token), on top of the
 * SameSite=Strict cookie and the Origin check below.
 */
export function requireCsrfToken(req: Request, _res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  if (!req.admin || !sameToken(req.get('x-csrf-token'), req.admin.session.csrfToken)) {
    throw forbidden(adminMessages.csrf);
  }
  next();
}

/** A write from another site's page is refused, whatever cookies it carries. */
export function requireSameOrigin(publicBaseUrl: string): RequestHandler {
  const allowed = new URL(publicBaseUrl).origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin && origin !== allowed && origin !== `${req.protocol}://${req.get('host')}`) {
      throw forbidden(adminMessages.csrf);
    }
    next();
  };
}
