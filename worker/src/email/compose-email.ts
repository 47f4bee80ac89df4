import type { Knex } from 'knex';
import { SMS_HELD } from '@guida/shared/deliveries/delivery-statuses';
import { daysLeft, guideLinkUrl } from '@guida/shared/lead-rules';
import { greetingName } from '@guida/shared/greeting-name';
import { erasureDateOf, gdprEmails } from '@guida/shared/gdpr-server-texts';
import { isLeadEmailKind, type DataRequestEmailKind, type LeadEmailKind } from '@guida/shared/jobs/email';
import { guideDelivery } from '@guida/shared/messages';
import { listUnsubscribeHeaders, marketingWithdrawalFooter, marketingWithdrawalUrl } from '@guida/shared/marketing-withdrawal';
import { guideLinkToken, keyGuideLink } from '@guida/shared/server/guide-link-token';
import { keyWithdrawalLink, withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';
import { composeGdprEmail, type GdprEmailSettings } from './gdpr-emails';
import type { EmailContext } from './email.repo';
import type { OutgoingEmail } from '@guida/shared/server/mailer';

export interface ComposeSettings extends GdprEmailSettings {
  retentionMonths: number;
  /** Keys the download and withdrawal links' tokens (decisions 029 and 048). */
  linkTokenSecret: string;
}

/** A lead's email row with what every email to a lead needs: the lead and its address. */
type LeadEmailContext = EmailContext & { kind: LeadEmailKind; lead_id: number; email: string; nome: string };

/** What an email to a lead says; who it goes to and its withdrawal link are added once, below. */
type LeadEmailContent = Pick<OutgoingEmail, 'subject' | 'text'>;

/**
 * The text of each email to a lead, by kind. Every kind of LEAD_EMAIL_KINDS needs one (the
 * type says so), and none of them addresses the email: composeLeadEmail does, with the
 * withdrawal link, so no email to a lead can go without it.
 */
const LEAD_EMAIL_TEXTS: {
  [K in LeadEmailKind]: (db: Knex, message: LeadEmailContext, settings: ComposeSettings) => Promise<LeadEmailContent | null>;
} = {
  'guide-link': async (db, message, settings) => {
    if (!message.expires_at) return null;
    // The same link as the SMS's: derived from the lead, only its hash stored.
    const { token, hash } = guideLinkToken(settings.linkTokenSecret, message.lead_id);
    if (message.token_hash !== hash) await keyGuideLink(db, message.lead_id, hash);
    return {
      subject: guideDelivery.emailSubject,
      text: guideDelivery.emailText(
        greetingName(message.nome),
        guideLinkUrl(settings.publicBaseUrl, token),
        daysLeft(message.expires_at),
        message.sms_status === null ? 'phone-served' : message.sms_status === SMS_HELD ? 'delayed' : 'failed',
      ),
    };
  },
  'retention-notice': async (_db, message, settings) => {
    if (!message.lead_created_at) return null;
    return {
      subject: gdprEmails.retentionNoticeSubject,
      text: gdprEmails.retentionNoticeText(
        greetingName(message.nome),
        erasureDateOf(message.lead_created_at, settings.retentionMonths),
        settings.retentionMonths,
      ),
    };
  },
};

/**
 * An email to a lead: to the lead's address, with the link that withdraws the marketing
 * consent at the end of its text and in the List-Unsubscribe headers (RFC 8058: mail
 * clients show their own button, which POSTs to the link). The link is keyed before the
 * email goes, so it works as soon as it arrives.
 */
async function composeLeadEmail(
  db: Knex,
  message: LeadEmailContext,
  settings: ComposeSettings,
): Promise<OutgoingEmail | null> {
  const content = await LEAD_EMAIL_TEXTS[message.kind](db, message, settings);
  if (!content) return null;
  const { token, hash } = withdrawalLinkToken(settings.linkTokenSecret, message.lead_id);
  await keyWithdrawalLink(db, message.lead_id, hash, settings.retentionMonths);
  const link = marketingWithdrawalUrl(settings.publicBaseUrl, token);
  return {
    to: message.email,
    subject: content.subject,
    text: `${content.text}${marketingWithdrawalFooter(link)}`,
    headers: listUnsubscribeHeaders(link),
  };
}

const isLeadEmail = (message: EmailContext): message is LeadEmailContext =>
  isLeadEmailKind(message.kind) && message.lead_id !== null && message.email !== null && message.nome !== null;

/**
 * The email a row stands for, or null when there is nothing to send any more (the lead
 * or the address was erased, the request was confirmed meanwhile, ...).
 */
export async function composeEmail(
  db: Knex,
  message: EmailContext,
  settings: ComposeSettings,
): Promise<OutgoingEmail | null> {
  if (isLeadEmailKind(message.kind)) return isLeadEmail(message) ? composeLeadEmail(db, message, settings) : null;
  // Every other kind is about a data request: a kind in neither list does not compile here.
  const kind: DataRequestEmailKind = message.kind;
  return composeGdprEmail(db, { ...message, kind }, settings);
}
