import type { Knex } from 'knex';
import { renderSVG } from 'uqr';
import { adminMessages } from '@guida/shared/messages';
import { isTotpCode, type AdminEnrolment } from '@guida/shared/schemas/admin';
import type { ApiConfig } from '../../config';
import { AppError } from '../../errors';
import { formatRecoveryCode, newRecoveryCodes, recoveryCodeHash } from './recovery-codes';
import { secretBox } from './secret-box';
import {
  confirmSecondFactor,
  findSecondFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  saveUnconfirmedSecret,
  takeRecoveryCode,
  takeStep,
} from './second-factor.repo';
import { matchingStep, newTotpSecret, totpUri } from './totp';

/** What authenticator apps list the account under. */
const ISSUER = 'Guida Finanza';

export type SecondFactorCheck = { method: 'totp' } | { method: 'recovery_code'; recoveryCodesLeft: number };

/** The key material of the secrets: ADMIN_SECOND_FACTOR_KEY, or outside production one derived from SESSION_SECRET. */
const keyMaterial = (config: Pick<ApiConfig, 'ADMIN_SECOND_FACTOR_KEY' | 'SESSION_SECRET'>) =>
  config.ADMIN_SECOND_FACTOR_KEY ?? `session-secret:${config.SESSION_SECRET}`;

/** The QR code as an SVG data: URL: drawn here, shown as an image (the CSP allows data: images, nothing external). */
const qrCodeOf = (uri: string) =>
  `data:image/svg+xml;base64,${Buffer.from(renderSVG(uri, { ecc: 'M', border: 4, pixelSize: 8 })).toString('base64')}`;

/**
 * The admins' second factor: a TOTP secret per admin, enrolled after the first password
 * login, confirmed by a first code; each code accepted once; ten one-time recovery codes.
 */
export function secondFactors(deps: { db: Knex; config: ApiConfig; now: () => number }) {
  const { db } = deps;
  const box = secretBox(keyMaterial(deps.config));
  const context = (userId: number) => `admin-totp:${userId}`;
  const host = new URL(deps.config.PUBLIC_BASE_URL).host;

  const secretOf = (userId: number, ciphertext: string) => {
    const secret = box.open(ciphertext, context(userId));
    // Sealed under another key: only a reset gives this admin a usable factor again.
    if (secret === null) throw new AppError(401, 'second_factor_unreadable', adminMessages.secondFactorUnreadable);
    return secret;
  };

  /** The step of a current code of the user's confirmed secret, taken (accepted once); false otherwise. */
  async function takeTotp(userId: number, code: string) {
    const row = await findSecondFactor(db, userId);
    if (!row?.confirmed_at) return false;
    const step = matchingStep(secretOf(userId, row.secret_ciphertext), code, deps.now());
    return step !== null && (await takeStep(db, userId, step));
  }

  async function newCodesFor(userId: number) {
    const codes = newRecoveryCodes();
    return { shown: codes.map(formatRecoveryCode), hashes: codes.map((code) => recoveryCodeHash(userId, code)) };
  }

  return {
    /** When the user's enrolment was confirmed; null when they have none (yet). */
    async enrolledAt(userId: number): Promise<Date | null> {
      return (await findSecondFactor(db, userId))?.confirmed_at ?? null;
    },

    /** A new secret for the user, awaiting its first code: what the app needs to add it. */
    async beginEnrolment(user: { id: number; username: string }): Promise<AdminEnrolment> {
      const secret = newTotpSecret();
      if (!(await saveUnconfirmedSecret(db, user.id, box.seal(secret, context(user.id))))) {
        throw new AppError(401, 'second_factor_pending', adminMessages.secondFactorExpired);
      }
      const otpauthUri = totpUri(secret, { issuer: ISSUER, label: `${user.username}@${host}` });
      return { secret, otpauthUri, qrCode: qrCodeOf(otpauthUri) };
    },

    /** Confirms the pending enrolment with a current code: the recovery codes, shown once; null for a wrong code. */
    async confirmEnrolment(userId: number, code: string): Promise<string[] | null> {
      const row = await findSecondFactor(db, userId);
      if (!row || row.confirmed_at) return null;
      const step = matchingStep(secretOf(userId, row.secret_ciphertext), code, deps.now());
      if (step === null) return null;
      const { shown, hashes } = await newCodesFor(userId);
      return (await confirmSecondFactor(db, userId, row.secret_ciphertext, step, hashes)) ? shown : null;
    },

    /** The login's second step: a current code of the app, or an unused recovery code; null when neither. */
    async check(userId: number, code: string): Promise<SecondFactorCheck | null> {
      if (isTotpCode(code)) return (await takeTotp(userId, code)) ? { method: 'totp' } : null;
      if (!(await findSecondFactor(db, userId))?.confirmed_at) return null;
      if (!(await takeRecoveryCode(db, userId, recoveryCodeHash(userId, code)))) return null;
      return { method: 'recovery_code', recoveryCodesLeft: await recoveryCodesLeft(db, userId) };
    },

    recoveryCodesLeft: (userId: number) => recoveryCodesLeft(db, userId),

    /** Ten new recovery codes in place of the old ones, against a current code of the app; null for a wrong code. */
    async regenerateRecoveryCodes(userId: number, code: string): Promise<string[] | null> {
      if (!(await takeTotp(userId, code))) return null;
      const { shown, hashes } = await newCodesFor(userId);
      await replaceRecoveryCodes(db, userId, hashes);
      return shown;
    },
  };
}

export type SecondFactors = ReturnType<typeof secondFactors>;
