/**
 * The life of a delivery — an SMS, a CRM post, an email — in one place: its statuses and
 * which operation may move it from which status to which. The rest of this folder
 * (sms-deliveries.ts, crm-deliveries.ts, email-deliveries.ts) is the only code that writes
 * the delivery tables, and each write it makes is one of these transitions; a transition
 * from a status not listed is refused with a DeliveryTransitionError. Browser-safe: the
 * admin shows these statuses.
 */

/**
 * sms_messages.status. `sending` is the claim a worker takes before calling the provider,
 * so two runs of a job send once (decision 019); the provider's reports (sent, delivered,
 * undelivered, failed) only ever move an SMS forward (see smsStatusRank). `held`: an SMS
 * budget stopped it before the provider was called; it goes back to pending when the
 * budget allows again or an admin releases it (decision 025), or an admin discards it
 * (`skipped`, with the reason, decision 052).
 */
export const SMS_STATUSES = [
  'pending',
  'held',
  'retrying',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'skipped',
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/** crm_deliveries.status and email_messages.status: delivered once the receiver took it. */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'sending', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type DeliveryKind = 'sms' | 'crm' | 'email' | 'conversion';

export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/** Still to be sent: what a worker may claim and the sweeper re-enqueues. */
const UNSENT = ['pending', 'retrying'] as const;
/** Claimed by a worker that is calling the provider right now (or stopped while it did). */
const SENDING = ['sending'] as const;

export const SMS_TRANSITIONS = {
  claim: { from: UNSENT, to: 'sending' },
  /** A claim older than the claim timeout: its worker stopped mid-send (the provider is asked first). */
  takeOver: { from: SENDING, to: 'sending' },
  recordSent: { from: SENDING, to: 'sent' },
  recordRetry: { from: SENDING, to: 'retrying' },
  recordFailure: { from: SENDING, to: 'failed' },
  /** The phone already got the guide from another lead within 24 hours, or its guide was downloaded from the emailed link. */
  skip: { from: UNSENT, to: 'skipped' },
  /** The admin's "resend" or "retry": only a finished SMS can go again. */
  reopen: { from: ['sent', 'delivered', 'undelivered', 'failed', 'skipped'], to: 'pending' },
  /** An SMS budget is reached: the SMS waits, nothing goes to the provider. */
  hold: { from: UNSENT, to: 'held' },
  /** The budget allows it again (the sweeper, oldest first). */
  resume: { from: ['held'], to: 'pending' },
  /** The admin's "release": sent even though a budget is still reached. */
  release: { from: ['held'], to: 'pending' },
  /** The admin's "discard" of held SMS (an attack's, by block, network, address or time): never sent (decision 052). */
  discard: { from: ['held'], to: 'skipped' },
} as const satisfies Record<string, Transition<SmsStatus>>;

/** Stopped by an SMS budget: the admin's alert counts these. */
export const SMS_HELD: SmsStatus = SMS_TRANSITIONS.hold.to;

/** The provider rate-limited the call: the claim goes back to what it was (no attempt used). */
export const SMS_HAND_BACK_FROM = SENDING;

export const CRM_TRANSITIONS = {
  claim: { from: UNSENT, to: 'sending' },
  /** A claim older than the claim timeout; posting again is safe, the CRM dedupes by delivery id. */
  takeOver: { from: SENDING, to: 'sending' },
  recordDelivered: { from: SENDING, to: 'delivered' },
  recordRetry: { from: SENDING, to: 'retrying' },
  recordFailure: { from: SENDING, to: 'failed' },
  /** No CRM configured, or the lead was erased before its post. */
  skip: { from: UNSENT, to: 'skipped' },
  /** Erasure: nothing more about the erased lead goes out, not even a post in flight. */
  settleForErasure: { from: [...UNSENT, ...SENDING], to: 'skipped' },
  /** The admin's "send to the CRM again". */
  reopen: { from: ['delivered', 'failed', 'skipped'], to: 'pending' },
  /** The admin's "retry" of a failed job. */
  retryFailed: { from: ['failed'], to: 'pending' },
} as const satisfies Record<string, Transition<DeliveryStatus>>;

export const EMAIL_TRANSITIONS = {
  claim: { from: UNSENT, to: 'sending' },
  /** A claim older than the claim timeout (the SMTP client's own timeouts are far shorter). */
  takeOver: { from: SENDING, to: 'sending' },
  recordDelivered: { from: SENDING, to: 'delivered' },
  recordRetry: { from: SENDING, to: 'retrying' },
  recordFailure: { from: SENDING, to: 'failed' },
  /** Claimed, then found to have nothing to say (its subject is gone). */
  skip: { from: SENDING, to: 'skipped' },
  /** The admin's "retry" of a failed job. */
  retryFailed: { from: ['failed'], to: 'pending' },
} as const satisfies Record<string, Transition<DeliveryStatus>>;

/** Composing the email failed: the claim goes back to what it was. */
export const EMAIL_HAND_BACK_FROM = SENDING;

/**
 * conversion_uploads.status (decision 061): a conversion posted to an ad platform by the
 * worker (Meta), or recorded as fetched by it (Google Ads: inserted as delivered).
 */
export const CONVERSION_TRANSITIONS = {
  claim: { from: UNSENT, to: 'sending' },
  /** A claim older than the claim timeout; posting again is safe, the platform dedupes by event_id. */
  takeOver: { from: SENDING, to: 'sending' },
  recordDelivered: { from: SENDING, to: 'delivered' },
  recordRetry: { from: SENDING, to: 'retrying' },
  recordFailure: { from: SENDING, to: 'failed' },
  /**
   * Claimed, then found not to go out: the platform is not configured, the consent is gone
   * (withdrawn, suppressed), the lead was erased, or the event is older than the platform
   * accepts. The worker checks after its claim, so a withdrawal cannot slip in between.
   */
  skip: { from: SENDING, to: 'skipped' },
  /**
   * A withdrawal of the marketing consent or an erasure: nothing more about the person goes
   * out, not even an upload a worker claimed (or stopped with, which no sweep revives).
   */
  settleForWithdrawal: { from: [...UNSENT, ...SENDING], to: 'skipped' },
  /** The admin's "retry" of a failed job. */
  retryFailed: { from: ['failed'], to: 'pending' },
} as const satisfies Record<string, Transition<DeliveryStatus>>;

/** Conversions by outcome, for the metrics and the alert. */
export const CONVERSION_DELIVERED: DeliveryStatus = CONVERSION_TRANSITIONS.recordDelivered.to;
export const CONVERSION_FAILED: DeliveryStatus = CONVERSION_TRANSITIONS.recordFailure.to;
export const CONVERSION_SKIPPED: DeliveryStatus = CONVERSION_TRANSITIONS.skip.to;
/** The platform did not take the conversion (yet): retrying or given up. */
export const CONVERSION_NOT_TAKEN: readonly DeliveryStatus[] = [CONVERSION_TRANSITIONS.recordRetry.to, CONVERSION_FAILED];

/** Statuses a delivery is still on its way in: the admin cannot send it again yet. */
export const ON_ITS_WAY: readonly (SmsStatus & DeliveryStatus)[] = [...UNSENT, ...SENDING];

/** SMS the provider took: they count as guides sent (live figures, time to SMS). */
export const SMS_HANDED_OVER: readonly SmsStatus[] = ['sent', 'delivered'];

/** The phone reported the SMS received (the provider's status callback). */
export const SMS_DELIVERED: SmsStatus = 'delivered';

/** CRM posts by outcome, for the admin's overview and the alerts. */
export const CRM_DELIVERED: DeliveryStatus = CRM_TRANSITIONS.recordDelivered.to;
export const CRM_RETRYING: DeliveryStatus = CRM_TRANSITIONS.recordRetry.to;
export const CRM_FAILED: DeliveryStatus = CRM_TRANSITIONS.recordFailure.to;
export const CRM_SKIPPED: DeliveryStatus = CRM_TRANSITIONS.skip.to;
/** The CRM did not take the post (yet): retrying or given up. */
export const CRM_NOT_TAKEN: readonly DeliveryStatus[] = [CRM_RETRYING, CRM_FAILED];

/** The status an SMS (re)starts its wait in: a new lead's, or one sent again. */
export const SMS_WAITING: SmsStatus = SMS_TRANSITIONS.reopen.to;

/** Statuses after which the guide link goes by email instead. */
export const SMS_FAILED_STATUSES: readonly SmsStatus[] = ['undelivered', 'failed'];

/** The status whose first timeline entry marks the moment the provider took the SMS. */
export const SMS_HANDED_OVER_EVENT: SmsStatus = 'sent';

const SMS_STATUS_RANK: Record<SmsStatus, number> = {
  pending: 0,
  held: 0,
  retrying: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
  skipped: 4,
};

/** Provider reports may arrive late, repeated or out of order: an SMS only moves up in rank. */
export function smsStatusRank(status: SmsStatus) {
  return SMS_STATUS_RANK[status];
}

/** Maps a Twilio MessageStatus to ours; null for statuses we do not track. */
export function smsStatusFromTwilio(status: string): SmsStatus | null {
  switch (status) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/**
 * A transition asked for a delivery that is not in one of its `from` statuses (`current`
 * is null when the delivery does not exist). The API answers it with 409 (404 without a
 * delivery) and an Italian message chosen by `current`.
 */
export class DeliveryTransitionError extends Error {
  constructor(
    readonly kind: DeliveryKind,
    readonly operation: string,
    readonly current: SmsStatus | DeliveryStatus | null,
  ) {
    super(`${kind} delivery cannot ${operation} from ${current ?? 'no delivery'}`);
    this.name = 'DeliveryTransitionError';
  }

  /** The delivery is still on its way (queued, retrying or being sent). */
  get inProgress() {
    return this.current !== null && (ON_ITS_WAY as readonly string[]).includes(this.current);
  }
}
