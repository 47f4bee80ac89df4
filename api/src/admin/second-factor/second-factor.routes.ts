import { Router } from 'express';
import { adminMessages } from '@guida/shared/messages';
import { adminTotpSchema, type AdminRecoveryCodes, type AdminSecondFactorStatus } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { validationFailed } from '../../errors';
import { parseOrThrow } from '../../http/validate';
import { signedIn } from '../admin-auth';
import { findUserById } from '../admin-users.repo';
import { auditAdminAction } from '../audit-log';
import type { CodeAttempts } from './code-attempts';
import type { SecondFactors } from './second-factor';

/**
 * The signed-in admin's own second factor: whether it is required, since when they have it,
 * how many recovery codes are left, and ten new recovery codes against a current code of
 * the app (the old ones stop working). The secret itself is never answered after enrolment.
 */
export function adminSecondFactorRouter(deps: ApiDeps, { factors, attemptCode }: { factors: SecondFactors; attemptCode: CodeAttempts }) {
  const router = Router();

  router.get('/second-factor', async (req, res) => {
    const { user } = signedIn(req);
    const enrolledAt = await factors.enrolledAt(user.id);
    const answer: AdminSecondFactorStatus = {
      required: deps.config.ADMIN_SECOND_FACTOR === 'required',
      enrolledAt: enrolledAt?.toISOString() ?? null,
      recoveryCodesLeft: await factors.recoveryCodesLeft(user.id),
    };
    res.json(answer);
  });

  router.post('/second-factor/recovery-codes', async (req, res) => {
    const { code } = parseOrThrow(adminTotpSchema, req.body);
    const user = (await findUserById(deps.db, signedIn(req).user.id))!;
    // Counted like a login attempt: a session left open is no way to guess codes quickly.
    const { result: recoveryCodes } = await attemptCode(req, user, () => factors.regenerateRecoveryCodes(user.id, code));
    if (!recoveryCodes) throw validationFailed({ code: adminMessages.wrongCode });
    await auditAdminAction(deps.db, req, { action: 'regenerate_recovery_codes', target: { type: 'user', id: user.id } });
    const answer: AdminRecoveryCodes & { message: string } = { recoveryCodes, message: adminMessages.recoveryCodesRegenerated };
    res.json(answer);
  });

  return router;
}
