import type { Knex } from 'knex';
import nodemailer from 'nodemailer';
import type { Logger } from '@guida/shared/server/logger';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** Extra header fields (List-Unsubscribe on emails to a lead); the outbox keeps none. */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly name: 'smtp' | 'outbox';
  send(email: OutgoingEmail): Promise<{ messageId: string }>;
  close(): void;
}

export class EmailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'EmailSendError';
  }
}

/**
 * nodemailer waits up to 2 minutes for a connection and 10 minutes on a silent socket, per
 * command: a hung server could hold a send past the claim timeout below, after which
 * another run takes the claimed email over (decision 021), and the email would go twice.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
/** Well beyond what the timeouts above let one send last (a minute of silence per command). */
export const SMTP_CLAIM_TIMEOUT_MS = 15 * 60_000;

/** SMTP over SMTP_URL. A 5xx answer rejects this recipient for good; the rest is retried. */
export function createSmtpMailer(smtpUrl: string, from: string, timeouts = SMTP_TIMEOUTS): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...timeouts });
  return {
    name: 'smtp',
    async send(email) {
      try {
        const info = await transport.sendMail({ from, ...email });
        return { messageId: info.messageId };
      } catch (error) {
        const { responseCode } = error as { responseCode?: number };
        const permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
        throw new EmailSendError(`SMTP: ${(error as Error).message}`, permanent);
      }
    },
    close: () => transport.close(),
  };
}

/** Development mailer: emails are stored in outbox_messages, nothing leaves the machine. */
export function createOutboxMailer(db: Knex, logger: Logger): Mailer {
  return {
    name: 'outbox',
    async send(email) {
      const [row] = await db('outbox_messages')
        .insert({ channel: 'email', recipient: email.to, subject: email.subject, body: email.text })
        .returning<{ id: number }[]>('id');
      logger.info({ outboxId: row!.id }, 'email stored in the outbox (SMTP_URL unset)');
      return { messageId: `outbox-${row!.id}` };
    },
    close: () => undefined,
  };
}
