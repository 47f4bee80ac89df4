import type { Knex } from 'knex';
import { gdprEmails } from '@guida/shared/gdpr-server-texts';
import { GDPR_REQUEST_TYPE_LABELS, GDPR_REQUEST_UNCONFIRMED, gdprConfirmUrl, gdprExportUrl } from '@guida/shared/gdpr-rules';
import { newLinkToken } from '@guida/shared/server/personal-data-hash';
import type { EmailContext } from './email.repo';
import type { OutgoingEmail } from '@guida/shared/server/mailer';

export interface GdprEmailSettings {
  publicBaseUrl: string;
  confirmLinkTtlHours: number;
  exportLinkTtlDays: number;
}

/**
 * Emails about a data request. Personal links are minted here, at sending time: only
 * the token's hash is stored, so the raw token exists in this email and nowhere else.
 * A retry mints a new one (the previous email, if it ever left, then holds a dead link).
 */
export async function composeGdprEmail(
  db: Knex,
  message: EmailContext,
  settings: GdprEmailSettings,
): Promise<OutgoingEmail | null> {
  const id = message.data_request_id;
  const to = message.request_email;
  if (id === null || to === null || message.request_type === null) return null;
  const typeLabel = GDPR_REQUEST_TYPE_LABELS[message.request_type];

  switch (message.kind) {
    case 'gdpr-confirm': {
      const { token, hash } = newLinkToken();
      const updated = await db('gdpr_data_requests')
        .where({ id, status: GDPR_REQUEST_UNCONFIRMED })
        .update({
          confirm_token_hash: hash,
          confirm_expires_at: db.raw('now() + make_interval(hours => ?)', [settings.confirmLinkTtlHours]),
        });
      if (updated === 0) return null;
      return {
        to,
        subject: gdprEmails.confirmSubject,
        text: gdprEmails.confirmText(typeLabel, gdprConfirmUrl(settings.publicBaseUrl, token), settings.confirmLinkTtlHours),
      };
    }
    case 'gdpr-export': {
      const { token, hash } = newLinkToken();
      const updated = await db('gdpr_exports')
        .where({ data_request_id: id })
        .update({
          token_hash: hash,
          expires_at: db.raw('now() + make_interval(days => ?)', [settings.exportLinkTtlDays]),
        });
      if (updated === 0) return null;
      const link = gdprExportUrl(settings.publicBaseUrl, token);
      return {
        to,
        subject: gdprEmails.exportSubject,
        text: gdprEmails.exportText(link, `${link}?format=csv`, settings.exportLinkTtlDays),
      };
    }
    case 'gdpr-completed':
      if (message.request_type === 'deletion') {
        return { to, subject: gdprEmails.deletionCompletedSubject, text: gdprEmails.deletionCompletedText };
      }
      if (message.request_type === 'rectification') {
        return { to, subject: gdprEmails.rectificationCompletedSubject, text: gdprEmails.rectificationCompletedText };
      }
      return null;
    case 'gdpr-rejected':
      return { to, subject: gdprEmails.rejectedSubject, text: gdprEmails.rejectedText(typeLabel, message.request_notes) };
    default:
      return null;
  }
}
