import type { Knex } from 'knex';
import { z } from 'zod';
import { httpUrl } from '../../config';
import type { Logger } from '../logger';
import { createOutboxMailer, createSmtpMailer, type Mailer } from '../mailer';
import { GENERATE_SECRET_COMMAND, isDeprecatedSecretForm, webhookSecretProblem, webhookSigningKey } from '../webhook-signature';
import type { AlertChannel } from './evaluate-alerts';
import type { AlertWebhookSettings } from './send-alert-notifications';

/** A new variable: Standard Webhooks secrets only, none of the CRM's older form. */
const alertWebhookSecret = z.string().superRefine((secret, ctx) => {
  const problem = isDeprecatedSecretForm(secret)
    ? `must be a Standard Webhooks secret ("whsec_" and base64); generate one with: ${GENERATE_SECRET_COMMAND}`
    : webhookSecretProblem(secret);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const emailList = z
  .string()
  .transform((value) => value.split(',').map((address) => address.trim()).filter(Boolean))
  .pipe(z.array(z.email({ error: 'must be email addresses separated by commas' })).min(1));

/**
 * How alerts are announced, read by the worker (its alerts, and its emails) and by the
 * API (the no-worker alert, which it must send itself: decision 058).
 */
export const alertChannelEnv = {
  /** smtp(s)://user:pass@host:port; unset = emails go to the outbox table (development). */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  EMAIL_FROM: z.string().min(3).default('Guida Finanza <noreply@localhost>'),
  /** Who gets the alerts by email (comma-separated); unset = no alert emails. */
  ALERT_EMAIL_TO: emailList.optional(),
  /** Where alerts are also posted, signed like the CRM webhook; unset = none. */
  ALERT_WEBHOOK_URL: httpUrl.optional(),
  ALERT_WEBHOOK_SECRET: alertWebhookSecret.optional(),
};

type AlertChannelValues = {
  SMTP_URL?: string | undefined;
  EMAIL_FROM: string;
  ALERT_EMAIL_TO?: string[] | undefined;
  ALERT_WEBHOOK_URL?: string | undefined;
  ALERT_WEBHOOK_SECRET?: string | undefined;
  PUBLIC_BASE_URL: string;
};

export function requireAlertWebhookSecret(value: AlertChannelValues, ctx: z.RefinementCtx) {
  if (value.ALERT_WEBHOOK_URL && !value.ALERT_WEBHOOK_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['ALERT_WEBHOOK_SECRET'],
      message: 'required when ALERT_WEBHOOK_URL is set (the receiver checks the signature with it)',
    });
  }
}

const WEBHOOK_TIMEOUT_MS = 10_000;

/** The channels, the webhook and the admin link the evaluator and the notifier take. */
export function alertChannelSettings(config: AlertChannelValues) {
  const channels: AlertChannel[] = [
    ...(config.ALERT_EMAIL_TO ? (['email'] as const) : []),
    ...(config.ALERT_WEBHOOK_URL ? (['webhook'] as const) : []),
  ];
  const webhook: AlertWebhookSettings | undefined =
    config.ALERT_WEBHOOK_URL && config.ALERT_WEBHOOK_SECRET
      ? { url: config.ALERT_WEBHOOK_URL, key: webhookSigningKey(config.ALERT_WEBHOOK_SECRET), timeoutMs: WEBHOOK_TIMEOUT_MS }
      : undefined;
  return { channels, emailTo: config.ALERT_EMAIL_TO, webhook, adminUrl: `${config.PUBLIC_BASE_URL}/admin/dashboard` };
}

/** SMTP when SMTP_URL is set, else the outbox table (development). */
export function createMailer(config: AlertChannelValues, db: Knex, logger: Logger): Mailer {
  return config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.EMAIL_FROM) : createOutboxMailer(db, logger);
}
