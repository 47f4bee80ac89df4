/**
 * Life cycle of an SMS, kept in sms_messages.status. Provider callbacks may arrive late,
 * repeated or out of order, so a status only ever moves to a higher rank. `sending` is the
 * claim a worker takes before calling the provider, so two runs of a job send once.
 */
export const SMS_STATUSES = [
  'pending',
  'retrying',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'skipped',
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

const SMS_STATUS_RANK: Record<SmsStatus, number> = {
  pending: 0,
  retrying: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
  skipped: 4,
};

export function smsStatusRank(status: SmsStatus) {
  return SMS_STATUS_RANK[status];
}

/** Statuses after which the guide link goes by email instead. */
export const SMS_FAILED_STATUSES: readonly SmsStatus[] = ['undelivered', 'failed'];

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
 * Life cycle of crm_deliveries and email_messages rows. `sending` is the claim a worker
 * takes before posting or sending, so two runs of a job deliver once.
 */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'sending', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Where Twilio posts status callbacks (the worker sends this URL with each SMS). */
export const SMS_STATUS_CALLBACK_PATH = '/api/sms/status';
