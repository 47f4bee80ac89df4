import type { Knex } from 'knex';
import type { SmsStatus } from '@guida/shared/delivery-status';
import { preparedStatement } from '@guida/shared/server/prepared-statement';

export interface SmsContext {
  sms_id: number;
  status: SmsStatus;
  nome: string;
  telefono: string;
  token: string;
  expires_at: Date;
  /** Another lead with this phone already got an SMS in the last 24 hours. */
  phone_recently_served: boolean;
}

// The two statements of every SMS, prepared once per connection (see prepared-statement.ts).
const loadSmsContextStatement = preparedStatement<SmsContext>(
  'load-sms-context',
  `
SELECT s.id AS sms_id, s.status, l.nome, l.telefono, t.token, t.expires_at,
  EXISTS (
    SELECT 1 FROM ebook_requests other
    JOIN sms_messages served ON served.lead_id = other.id
    WHERE other.telefono = l.telefono AND other.id <> l.id
      AND served.status IN ('sent', 'delivered')
      AND served.sent_at > now() - interval '24 hours'
  ) AS phone_recently_served
FROM sms_messages s
JOIN ebook_requests l ON l.id = s.lead_id
JOIN download_tokens t ON t.lead_id = s.lead_id
WHERE s.lead_id = :leadId
`,
);

const recordTransitionStatement = preparedStatement(
  'record-sms-transition',
  `
WITH changed AS (
  UPDATE sms_messages SET
    status = :status,
    attempts = :attempts,
    updated_at = now(),
    provider = COALESCE(:provider, provider),
    provider_message_id = COALESCE(:providerMessageId, provider_message_id),
    sent_at = CASE WHEN :status = 'sent' THEN now() ELSE sent_at END,
    failed_at = CASE WHEN :status = 'failed' THEN now() ELSE failed_at END,
    error_code = :errorCode,
    error_message = :errorMessage
  WHERE id = :smsId
  RETURNING id
)
INSERT INTO sms_events (sms_message_id, status, error_code, error_message)
SELECT id, :status, :errorCode, :errorMessage FROM changed
`,
);

export async function loadSmsContext(db: Knex, leadId: number): Promise<SmsContext | undefined> {
  return (await loadSmsContextStatement(db, { leadId })).rows[0];
}

interface Transition {
  status: SmsStatus;
  attempts: number;
  provider?: string;
  providerMessageId?: string;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/** Records a status change made by the worker and appends it to the SMS timeline, atomically. */
export async function recordSmsTransition(db: Knex, smsId: number, change: Transition) {
  await recordTransitionStatement(db, {
    smsId,
    status: change.status,
    attempts: change.attempts,
    provider: change.provider ?? null,
    providerMessageId: change.providerMessageId ?? null,
    errorCode: change.errorCode ?? null,
    errorMessage: change.errorMessage ?? null,
  });
}
