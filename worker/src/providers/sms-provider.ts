import type { ReportedPrice } from '@guida/shared/deliveries/sms-prices';

export interface OutgoingSms {
  to: string;
  body: string;
  /** Lead id, for logs only. */
  leadId: number;
  /** Our SMS id: the provider's status reports name it. */
  smsId: number;
}

/** What identifies an SMS we may have handed over before a worker stopped mid-send. */
export interface SentSmsQuery {
  to: string;
  /** A text only that SMS contains (its personal link). */
  marker: string;
  /** The earlier claim was taken then: the SMS cannot be older. */
  since: Date;
}

export interface SmsProvider {
  readonly name: 'twilio' | 'outbox';
  send(message: OutgoingSms): Promise<{ providerMessageId: string }>;
  /** The provider's id of an SMS matching the query, or null when it never got one. */
  findSent(query: SentSmsQuery): Promise<{ providerMessageId: string } | null>;
  /**
   * What the provider billed for a message, null while it has not said (decision 060);
   * absent for a provider that bills nothing (the outbox).
   */
  fetchPrice?(providerMessageId: string): Promise<ReportedPrice | null>;
}

/**
 * A provider failure, classified: `permanent` will fail again (invalid number),
 * `rate-limited` asks us to slow down, `transient` is worth retrying.
 */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly kind: 'permanent' | 'transient' | 'rate-limited',
    readonly code: string | null,
    readonly retryAfterMs = 1000,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}
