import { createHmac } from 'node:crypto';
import type { Request } from 'express';
import type { Knex } from 'knex';
import { truncateIp } from '../http/client-ip';
import { signedIn } from './admin-auth';

export type AuditAction =
  | 'login_success'
  | 'login_failure'
  | 'logout'
  | 'export_leads_csv'
  /** The Google Ads conversions file downloaded by an admin (decision 062). */
  | 'export_google_ads_conversions'
  | 'resend_sms'
  | 'redeliver_crm'
  | 'retry_job'
  | 'process_data_request'
  | 'rectify_lead'
  | 'view_consent_history'
  | 'release_held_sms'
  /** Held SMS discarded by block, network, address or time (decision 052): the criteria and the count. */
  | 'discard_held_sms'
  | 'stop_hero_experiment'
  | 'withdraw_marketing_consent'
  /** The offer's start, end or places changed in the environment (found at an API start). */
  | 'change_offer_settings'
  /** The second factor (decision 054): enrolled at a first login, a recovery code used, codes regenerated, reset by admin:create. */
  | 'enrol_second_factor'
  | 'use_recovery_code'
  | 'regenerate_recovery_codes'
  | 'reset_second_factor'
  /** An ad spend CSV imported (decision 060): its rows, how many new and replaced, its first and last day. */
  | 'import_ad_spend';

/**
 * Who an entry names when no admin acted (a change of the environment, found at a start):
 * in brackets, which no username can be (create-admin allows letters, digits, . _ @ -).
 */
export const CONFIGURATION_ACTOR = '(configurazione)';

/**
 * A username typed at a failed login that matches no account, as stored in the audit log:
 * a keyed digest, so repeated attempts with the same text can be told apart without
 * storing the text (someone's name, address, or a password typed in the wrong field).
 */
export const typedUsernameDigest = (secret: string, typed: string) =>
  createHmac('sha256', secret).update(`audit-username:${typed.toLowerCase()}`).digest('hex').slice(0, 16);

/**
 * Who did what, to what, when: append-only. No personal data: of leads only their id, of
 * searches and filters only which ones were used, of unknown usernames only a digest.
 */
export async function audit(
  db: Knex,
  req: Request,
  entry: {
    userId: number | null;
    username: string;
    action: AuditAction;
    target?: { type: string; id: string | number };
    details?: Record<string, unknown>;
  },
) {
  await db('admin_audit_log').insert({
    user_id: entry.userId,
    username: entry.username,
    action: entry.action,
    target_type: entry.target?.type ?? null,
    target_id: entry.target ? String(entry.target.id) : null,
    details: entry.details ?? null,
    ip_address: truncateIp(req.ip),
  });
}

/** An action of the signed-in admin of this request. */
export async function auditAdminAction(
  db: Knex,
  req: Request,
  entry: { action: AuditAction; target?: { type: string; id: string | number }; details?: Record<string, unknown> },
) {
  const { user } = signedIn(req);
  await audit(db, req, { userId: user.id, username: user.username, ...entry });
}

/** Who an entry names when the operator acted on the command line (`npm run admin:create`). */
export const COMMAND_LINE_ACTOR = '(admin:create)';

/** What the operator did on the command line (admin:create), about the user named by `target`. */
export async function auditCommandLineAction(
  db: Knex,
  entry: { action: AuditAction; target: { type: 'user'; id: number }; details?: Record<string, unknown> },
) {
  await db('admin_audit_log').insert({
    user_id: entry.target.id,
    username: COMMAND_LINE_ACTOR,
    action: entry.action,
    target_type: entry.target.type,
    target_id: String(entry.target.id),
    details: entry.details ?? null,
    ip_address: null,
  });
}

/** A change no admin made through the admin area: the environment's settings, found changed at a start. */
export async function auditConfigurationChange(
  db: Knex,
  entry: { action: AuditAction; target: { type: string; id: string | number }; details: Record<string, unknown> },
) {
  await db('admin_audit_log').insert({
    user_id: null,
    username: CONFIGURATION_ACTOR,
    action: entry.action,
    target_type: entry.target.type,
    target_id: String(entry.target.id),
    details: entry.details,
    ip_address: null,
  });
}
