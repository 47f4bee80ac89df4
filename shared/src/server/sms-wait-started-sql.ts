import { SMS_WAITING } from '@guida/shared/deliveries/delivery-statuses';

/**
 * When an SMS's wait began, as SQL over `sms_messages s JOIN ebook_requests l`: its lead's
 * request, or, for an SMS sent again (the admin's resend, a held SMS resumed or released),
 * the last time it went back to pending. The wait of a resent SMS starts with the resend,
 * not with a lead of last week. The alerts and the admin's overview measure the 2-minute
 * promise from it.
 */
export const SMS_WAIT_STARTED_SQL = `COALESCE(
  (SELECT max(e.occurred_at) FROM sms_events e WHERE e.sms_message_id = s.id AND e.status = '${SMS_WAITING}'),
  l.created_at)`;
