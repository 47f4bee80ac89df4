import type { Knex } from 'knex';
import { daysLeft, guideLinkUrl } from '@guida/shared/lead-rules';
import { greetingName } from '@guida/shared/greeting-name';
import { erasureDateOf, gdprEmails } from '@guida/shared/gdpr-server-texts';
import { guideDelivery } from '@guida/shared/messages';
import { guideLinkToken, keyGuideLink } from '@guida/shared/server/guide-link-token';
import { composeGdprEmail, type GdprEmailSettings } from './gdpr-emails';
import type { EmailContext } from './email.repo';
import type { OutgoingEmail } from '../providers/mailer';

export interface ComposeSettings extends GdprEmailSettings {
  retentionMonths: number;
  /** Keys the download links' tokens (decision 029). */
  linkTokenSecret: string;
}

/**
 * The email a row stands for, or null when there is nothing to send any more (the lead
 * or the address was erased, the request was confirmed meanwhile, ...).
 */
export async function composeEmail(
  db: Knex,
  message: EmailContext,
  settings: ComposeSettings,
): Promise<OutgoingEmail | null> {
  switch (message.kind) {
    case 'guide-link': {
      if (!message.lead_id || !message.email || !message.nome || !message.expires_at) return null;
      // The same link as the SMS's: derived from the lead, only its hash stored.
      const { token, hash } = guideLinkToken(settings.linkTokenSecret, message.lead_id);
      if (message.token_hash !== hash) await keyGuideLink(db, message.lead_id, hash);
      return {
        to: message.email,
        subject: guideDelivery.emailSubject,
        text: guideDelivery.emailText(
          greetingName(message.nome),
          guideLinkUrl(settings.publicBaseUrl, token),
          daysLeft(message.expires_at),
        ),
      };
    }
    case 'retention-notice':
      if (!message.email || !message.nome || !message.lead_created_at) return null;
      return {
        to: message.email,
        subject: gdprEmails.retentionNoticeSubject,
        text: gdprEmails.retentionNoticeText(
          greetingName(message.nome),
          erasureDateOf(message.lead_created_at, settings.retentionMonths),
          settings.retentionMonths,
        ),
      };
    default:
      return composeGdprEmail(db, message, settings);
  }
}
