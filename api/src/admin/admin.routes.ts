import { Router } from 'express';
import { clientKey } from '../http/client-ip';
import { adminMessages } from '@guida/shared/messages';
import { adminLoginSchema, type AdminSession } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { createRateLimit, type RateLimit } from '../http/rate-limit';
import { parseOrThrow } from '../http/validate';
import { requireAdmin, requireCsrfToken, requireSameOrigin, signedIn } from './admin-auth';
import { createSessionStore, type AdminSessionData } from './admin-session';
import { findUserByUsername, recordLogin } from './admin-users.repo';
import { audit } from './audit-log';
import { verifyPassword } from './password-hash';
import { adminDataRequestsRouter } from './data-requests/admin-data-requests.routes';
import { adminLeadsRouter } from './leads/admin-leads.routes';
import { adminQueuesRouter } from './queues/admin-queues.routes';
import { adminReportsRouter } from './reports/admin-reports.routes';
import { adminSmsBudgetRouter } from './sms-budget/admin-sms-budget.routes';

const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Per address: enough for a team behind one NAT, far too few for guessing. */
const LOGINS_PER_IP = 30;
/** Failed attempts per username before it is locked for the rest of the window. */
const FAILURES_PER_USERNAME = 5;

const sessionAnswer = (session: AdminSessionData): AdminSession => ({
  user: { id: session.userId, username: session.username, isAdmin: true },
  csrfToken: session.csrfToken,
  expiresAt: new Date(session.expiresAt).toISOString(),
});

/** A refusal of a login attempt with the login's own message instead of the generic one. */
async function limitLogin(operation: Promise<void>) {
  try {
    await operation;
  } catch (error) {
    if (error instanceof AppError && error.status === 429) {
      throw new AppError(429, 'rate_limited', adminMessages.tooManyAttempts, error.details);
    }
    throw error;
  }
}

/**
 * The admin API under /api/admin. Login, session and logout first; every other route
 * needs an admin session, and writes also a same-origin request with the CSRF token.
 */
export function adminRouter(deps: ApiDeps) {
  const { config } = deps;
  const sessions = createSessionStore({
    redis: deps.redis,
    prefix: config.REDIS_KEY_PREFIX,
    secret: config.SESSION_SECRET,
    idleSeconds: config.ADMIN_SESSION_IDLE_MINUTES * 60,
    maxSeconds: config.ADMIN_SESSION_MAX_HOURS * 3600,
    secure: new URL(config.PUBLIC_BASE_URL).protocol === 'https:',
  });
  const limit = (name: string, points: number): RateLimit =>
    createRateLimit({
      redis: deps.redis,
      keyPrefix: `${config.REDIS_KEY_PREFIX}:rl:admin-${name}`,
      points,
      durationSeconds: LOGIN_WINDOW_SECONDS,
    });
  const loginsPerIp = limit('login-ip', LOGINS_PER_IP);
  const failuresPerUsername = limit('login-user', FAILURES_PER_USERNAME);

  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/login', requireSameOrigin(config.PUBLIC_BASE_URL), async (req, res) => {
    await limitLogin(loginsPerIp.consume(clientKey(req.ip)));
    const credentials = parseOrThrow(adminLoginSchema, req.body);
    const usernameKey = credentials.username.toLowerCase();
    await limitLogin(failuresPerUsername.check(usernameKey));

    const user = await findUserByUsername(deps.db, credentials.username);
    const valid = await verifyPassword(user?.password, credentials.password);
    // A valid password of a non-admin is refused like a wrong one: nothing to learn here.
    if (!user || !valid || !user.is_admin) {
      await failuresPerUsername.count(usernameKey);
      await audit(deps.db, req, {
        userId: user?.id ?? null,
        username: credentials.username,
        action: 'login_failure',
        details: { reason: !user ? 'unknown_user' : valid ? 'not_admin' : 'wrong_password' },
      });
      throw new AppError(401, 'invalid_credentials', adminMessages.invalidCredentials);
    }

    await failuresPerUsername.reset(usernameKey);
    // Rotation: whatever session this browser had is dropped, a new id is issued.
    await sessions.forget(req);
    const session = await sessions.create(res, { id: user.id, username: user.username });
    await recordLogin(deps.db, user.id);
    await audit(deps.db, req, { userId: user.id, username: user.username, action: 'login_success' });
    res.json(sessionAnswer(session));
  });

  const signedInAdmin = requireAdmin(deps, sessions);

  router.get('/session', signedInAdmin, (req, res) => {
    res.json(sessionAnswer(signedIn(req).session));
  });

  router.post('/logout', async (req, res) => {
    const session = await sessions.read(req);
    await sessions.destroy(req, res);
    if (session) {
      await audit(deps.db, req, { userId: session.userId, username: session.username, action: 'logout' });
    }
    res.status(204).end();
  });

  router.use(signedInAdmin, requireSameOrigin(config.PUBLIC_BASE_URL), requireCsrfToken);
  router.use(adminLeadsRouter(deps));
  router.use(adminQueuesRouter(deps));
  router.use(adminReportsRouter(deps));
  router.use(adminDataRequestsRouter(deps));
  router.use(adminSmsBudgetRouter(deps));
  return router;
}
