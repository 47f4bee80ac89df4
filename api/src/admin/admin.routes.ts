import { Router, type Request, type Response } from 'express';
import { clientKey } from '../http/client-ip';
import { adminMessages } from '@guida/shared/messages';
import {
  adminLoginSchema,
  adminSecondFactorSchema,
  adminTotpSchema,
  isTotpCode,
  type AdminConfiguration,
  type AdminLoginAnswer,
  type AdminSession,
} from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { parseOrThrow } from '../http/validate';
import { requireAdmin, requireCsrfToken, requireSameOrigin, signedIn } from './admin-auth';
import { createSessionStore, passwordStamp, sameToken, type AdminSessionData } from './admin-session';
import { findUserById, findUserByUsername, recordLogin, type UserRow } from './admin-users.repo';
import { audit, typedUsernameDigest } from './audit-log';
import { knownDevices, type KnownDevice } from './known-device';
import { createLoginGuard } from './login-guard';
import { verificationSlots, verifyPassword } from './password-hash';
import { codeAttempts } from './second-factor/code-attempts';
import { pendingLogins } from './second-factor/pending-login';
import { secondFactors } from './second-factor/second-factor';
import { adminSecondFactorRouter } from './second-factor/second-factor.routes';
import { adminAlertsRouter } from './alerts/admin-alerts.routes';
import { adminConversionsRouter } from './conversions/admin-conversions.routes';
import { adminDataRequestsRouter } from './data-requests/admin-data-requests.routes';
import { adminCostsRouter } from './costs/admin-costs.routes';
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

const wrongCode = () => new AppError(401, 'wrong_code', adminMessages.wrongCode);
const pendingExpired = () => new AppError(401, 'second_factor_pending', adminMessages.secondFactorExpired);

/**
 * The admin API under /api/admin. The login (password, then the second factor: a code of
 * the app, or enrolment on the first login), the session and logout first; every other
 * route needs an admin session, and writes also a same-origin request with the CSRF token.
 */
export function adminRouter(deps: ApiDeps) {
  const { config } = deps;
  const secure = new URL(config.PUBLIC_BASE_URL).protocol === 'https:';
  // The clock of idle sessions and TOTP steps: the offer's (decision 047), which tests move.
  const now = () => (deps.now?.() ?? new Date()).getTime();
  const sessions = createSessionStore({
    redis: deps.redis,
    prefix: config.REDIS_KEY_PREFIX,
    secret: config.SESSION_SECRET,
    idleSeconds: config.ADMIN_IDLE_MINUTES * 60,
    maxSeconds: config.ADMIN_SESSION_MAX_HOURS * 3600,
    secure,
    now,
  });
  const secondFactorRequired = config.ADMIN_SECOND_FACTOR === 'required';
  const pending = pendingLogins({ redis: deps.redis, prefix: config.REDIS_KEY_PREFIX, secret: config.SESSION_SECRET, secure });
  const factors = secondFactors({ db: deps.db, config, now });
  const devices = knownDevices({ secret: config.SESSION_SECRET, secure });
  const guard = createLoginGuard({ redis: deps.redis, prefix: config.REDIS_KEY_PREFIX });
  const attemptCode = codeAttempts({ guard, devices });
  const passwordChecks = verificationSlots(PASSWORD_CHECKS_AT_ONCE, PASSWORD_CHECKS_FOR_KNOWN_DEVICES);
  const sameOrigin = requireSameOrigin(config.PUBLIC_BASE_URL);

  /** Signed in: a new session (the browser's previous one dropped), the device remembered, audited. */
  async function openSession(
    req: Request,
    res: Response,
    user: UserRow,
    device: KnownDevice | null,
    secondFactor: 'totp' | 'recovery_code' | 'off',
  ) {
    await sessions.forget(req);
    const secondFactorAt = secondFactor === 'off' ? null : await factors.enrolledAt(user.id);
    const session = await sessions.create(res, user, secondFactorAt);
    devices.remember(res, user, device);
    await recordLogin(deps.db, user.id);
    await audit(deps.db, req, {
      userId: user.id,
      username: user.username,
      action: 'login_success',
      details: { knownDevice: device !== null, secondFactor },
    });
    return sessionAnswer(session);
  }

  /** The user of this browser's pending login at `stage`, still an admin with the same password; else 401. */
  async function pendingUser(req: Request, res: Response, stage: 'enrol' | 'verify') {
    const login = await pending.read(req);
    if (!login || login.stage !== stage) throw pendingExpired();
    const user = await findUserById(deps.db, login.userId);
    if (!user || !user.is_admin || !sameToken(login.passwordStamp, passwordStamp(config.SESSION_SECRET, user.password))) {
      await pending.finish(req, res);
      throw pendingExpired();
    }
    return user;
  }

  const auditWrongCode = (req: Request, user: UserRow, device: KnownDevice | null, reason: string) =>
    audit(deps.db, req, {
      userId: user.id,
      username: user.username,
      action: 'login_failure',
      details: { reason, knownDevice: device !== null },
    });

  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/login', sameOrigin, async (req, res) => {
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
    // Rotation: whatever session this browser had ends at a new login.
    await sessions.forget(req);
    let answer: AdminLoginAnswer;
    if (!secondFactorRequired) {
      answer = { step: 'signed-in', session: await openSession(req, res, user, device, 'off') };
    } else {
      // Password verified, second factor pending: no session yet, only a short-lived state
      // that the next step (and no admin route) reads.
      const enrolled = (await factors.enrolledAt(user.id)) !== null;
      const stage = enrolled ? 'verify' : 'enrol';
      await pending.start(req, res, {
        userId: user.id,
        username: user.username,
        passwordStamp: passwordStamp(config.SESSION_SECRET, user.password),
        stage,
      });
      answer = enrolled ? { step: 'second-factor' } : { step: 'enrol', enrolment: await factors.beginEnrolment(user) };
    }
    res.json(answer);
  });

  router.post('/login/second-factor', sameOrigin, async (req, res) => {
    const user = await pendingUser(req, res, 'verify');
    const { code } = parseOrThrow(adminSecondFactorSchema, req.body);
    const { result, device } = await attemptCode(req, user, () => factors.check(user.id, code));
    if (!result) {
      await auditWrongCode(req, user, device, isTotpCode(code) ? 'wrong_totp_code' : 'wrong_recovery_code');
      throw wrongCode();
    }
    await pending.finish(req, res);
    if (result.method === 'recovery_code') {
      await audit(deps.db, req, {
        userId: user.id,
        username: user.username,
        action: 'use_recovery_code',
        details: { recoveryCodesLeft: result.recoveryCodesLeft },
      });
    }
    const answer: AdminLoginAnswer = {
      step: 'signed-in',
      session: await openSession(req, res, user, device, result.method),
      ...(result.method === 'recovery_code' ? { recoveryCodesLeft: result.recoveryCodesLeft } : {}),
    };
    res.json(answer);
  });

  router.post('/login/enrolment', sameOrigin, async (req, res) => {
    const user = await pendingUser(req, res, 'enrol');
    const { code } = parseOrThrow(adminTotpSchema, req.body);
    const { result: recoveryCodes, device } = await attemptCode(req, user, () => factors.confirmEnrolment(user.id, code));
    if (!recoveryCodes) {
      await auditWrongCode(req, user, device, 'wrong_enrolment_code');
      throw wrongCode();
    }
    await pending.finish(req, res);
    await audit(deps.db, req, { userId: user.id, username: user.username, action: 'enrol_second_factor' });
    const answer: AdminLoginAnswer = { step: 'signed-in', session: await openSession(req, res, user, device, 'totp'), recoveryCodes };
    res.json(answer);
  });

  const signedInAdmin = requireAdmin(deps, sessions);

  router.get('/session', signedInAdmin, (req, res) => {
    res.json(sessionAnswer(signedIn(req).session));
  });

  router.post('/logout', async (req, res) => {
    const session = await sessions.read(req, { activity: false });
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
  router.use(adminCostsRouter(deps));
  router.use(adminConversionsRouter(deps));
  router.use(adminSecondFactorRouter(deps, { factors, attemptCode }));
  return router;
}
