import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { adminMessages } from '@guida/shared/messages';
import { ADMIN_BACKGROUND_HEADER } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../dependencies';
import { AppError, forbidden } from '../errors';
import { findUserWithSecondFactor } from './admin-users.repo';
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
 * A request the browser marked as its own (a poll): it does not renew the session. Any
 * value counts, so the mark can only end a session sooner, never keep it open.
 */
export const isBackgroundRequest = (req: Request) => req.get(ADMIN_BACKGROUND_HEADER) !== undefined;

/**
 * Every admin route: a valid session (not idle, not expired) opened with the user's current
 * password and, unless ADMIN_SECOND_FACTOR=off, with the second factor the user has now
 * (else 401), a user who is still an admin in the database right now (else 403: revoking
 * takes effect at once). A pending login (password verified, second factor not yet) is no
 * session: it is refused here like no cookie at all.
 */
export function requireAdmin(deps: ApiDeps, sessions: SessionStore): RequestHandler {
  const secondFactorRequired = deps.config.ADMIN_SECOND_FACTOR === 'required';
  return async (req, _res, next) => {
    const session = await sessions.read(req, { activity: !isBackgroundRequest(req) });
    if (!session) throw notSignedIn();
    const user = await findUserWithSecondFactor(deps.db, session.userId);
    const withSecondFactor =
      !secondFactorRequired ||
      (typeof session.secondFactorAt === 'number' && session.secondFactorAt === user?.second_factor_at?.getTime());
    if (!user || !sessions.openedWithPassword(session, user.password) || !withSecondFactor) {
      // Deleted user, a password changed since, a second factor reset since (or a session
      // opened without one while it is required): this session ends for good.
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
