import { Router } from 'express';
import { clientKey } from '../http/client-ip';
import { adminMessages } from '@guida/shared/messages';
import { adminLoginSchema, type AdminConfiguration, type AdminSession } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { parseOrThrow } from '../http/validate';
import { requireAdmin, requireCsrfToken, requireSameOrigin, signedIn } from './admin-auth';
import { createSessionStore, type AdminSessionData } from './admin-session';
import { findUserByUsername, recordLogin } from './admin-users.repo';
import { audit, typedUsernameDigest } from './audit-log';
import { knownDevices } from './known-device';
import { createLoginGuard } from './login-guard';
import { verificationSlots, verifyPassword } from './password-hash';
import { adminAlertsRouter } from './alerts/admin-alerts.routes';
import { adminDataRequestsRouter } from './data-requests/admin-data-requests.routes';
import { adminExperimentsRouter } from './experiments/admin-experiments.routes';
import { adminLeadsRouter } from './leads/admin-leads.routes';
import { adminOverviewRouter } from './overview/admin-overview.routes';
import { adminQueuesRouter } from './queues/admin-queues.routes';
import { adminReportsRouter } from './reports/admin-reports.routes';
import { adminSmsBudgetRouter } from './sms-budget/admin-sms-budget.routes';

/**
 * Password checks at a time in this process: each takes a thread of libuv's pool (4 by
 * default, shared with file and DNS work) and 19 MiB. One more is kept for known devices,
 * so strangers filling the slots cannot keep the admin out.
 */
const PASSWORD_CHECKS_AT_ONCE = 2;
const PASSWORD_CHECKS_FOR_KNOWN_DEVICES = 1;

const sessionAnswer = (session: AdminSessionData): AdminSession => ({
  user: { id: session.userId, username: session.username, isAdmin: true },
  csrfToken: session.csrfToken,
  expiresAt: new Date(session.expiresAt).toISOString(),
});

/**
 * The admin API under /api/admin. Login, session and logout first; every other route
 * needs an admin session, and writes also a same-origin request with the CSRF token.
 */
export function adminRouter(deps: ApiDeps) {
  const { config } = deps;
  const secure = new URL(config.PUBLIC_BASE_URL).protocol === 'https:';
  const sessions = createSessionStore({
    redis: deps.redis,
    prefix: config.REDIS_KEY_PREFIX,
    secret: config.SESSION_SECRET,
    idleSeconds: config.ADMIN_SESSION_IDLE_MINUTES * 60,
    maxSeconds: config.ADMIN_SESSION_MAX_HOURS * 3600,
    secure,
  });
  const devices = knownDevices({ secret: config.SESSION_SECRET, secure });
  const guard = createLoginGuard({ redis: deps.redis, prefix: config.REDIS_KEY_PREFIX });
  const passwordChecks = verificationSlots(PASSWORD_CHECKS_AT_ONCE, PASSWORD_CHECKS_FOR_KNOWN_DEVICES);

  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/login', requireSameOrigin(config.PUBLIC_BASE_URL), async (req, res) => {
    const client = clientKey(req.ip);
    const credentials = parseOrThrow(adminLoginSchema, req.body);
    const user = await findUserByUsername(deps.db, credentials.username);
    const device = devices.recognise(req, user);
    if (!device) await guard.countClient(client);

    // Refused, not queued: a queue of password checks is what would slow the process down.
    const release = passwordChecks.tryAcquire(device !== null);
    if (!release) throw new AppError(429, 'login_busy', adminMessages.loginBusy, { retryAfterSeconds: 1 });
    let valid: boolean;
    let giveBack: () => Promise<void>;
    try {
      giveBack = await guard.admit({ username: credentials.username, client, device });
      valid = await verifyPassword(user?.password, credentials.password);
    } finally {
      release();
    }

    // A valid password of a non-admin is refused like a wrong one: nothing to learn here.
    if (!user || !valid || !user.is_admin) {
      await audit(deps.db, req, {
        userId: user?.id ?? null,
        // What a stranger typed may be a name, an address or a password: only a keyed digest of it.
        username: user?.username ?? `unknown:${typedUsernameDigest(config.SESSION_SECRET, credentials.username)}`,
        action: 'login_failure',
        details: {
          reason: !user ? 'unknown_user' : valid ? 'not_admin' : 'wrong_password',
          knownDevice: device !== null,
        },
      });
      throw new AppError(401, 'invalid_credentials', adminMessages.invalidCredentials);
    }

    await giveBack();
    // Rotation: whatever session this browser had is dropped, a new id is issued.
    await sessions.forget(req);
    const session = await sessions.create(res, user);
    devices.remember(res, user, device);
    await recordLogin(deps.db, user.id);
    await audit(deps.db, req, {
      userId: user.id,
      username: user.username,
      action: 'login_success',
      details: { knownDevice: device !== null },
    });
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
  router.get('/configuration', (_req, res) => {
    const answer: AdminConfiguration = { crmConfigured: Boolean(config.CRM_WEBHOOK_URL) };
    res.json(answer);
  });
  router.use(adminOverviewRouter(deps));
  router.use(adminLeadsRouter(deps));
  router.use(adminQueuesRouter(deps));
  router.use(adminReportsRouter(deps));
  router.use(adminDataRequestsRouter(deps));
  router.use(adminSmsBudgetRouter(deps));
  router.use(adminAlertsRouter(deps));
  router.use(adminExperimentsRouter(deps));
  return router;
}
