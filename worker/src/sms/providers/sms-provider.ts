export interface OutgoingSms {
  to: string;
  body: string;
  /** Lead id, for logs only. */
  leadId: number;
}

export interface SmsProvider {
  readonly name: 'twilio' | 'outbox';
  send(message: OutgoingSms): Promise<{ providerMessageId: string }>;
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
