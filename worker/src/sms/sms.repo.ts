import type { Knex } from 'knex';
import type { SmsStatus } from '@guida/shared/delivery-status';
import { preparedStatement } from '@guida/shared/server/prepared-statement';

export interface SmsContext {
  sms_id: number;
  status: SmsStatus;
  attempts: number;
  nome: string;
  telefono: string;
  token: string;
  expires_at: Date;
  /** Another lead with this phone already got an SMS in the last 24 hours. */
  phone_recently_served: boolean;
}

// The three statements of every SMS, prepared once per connection (see prepared-statement.ts).
const loadSmsContextStatement = preparedStatement<SmsContext>(
  'load-sms-context',
  `
SELECT s.id AS sms_id, s.status, s.attempts, l.nome, l.telefono, t.token, t.expires_at,
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

// The row lock makes a second, concurrent claim wait, then find the row no longer claimable.
const claimStatement = preparedStatement(
  'claim-sms',
  `
WITH claimed AS (
  UPDATE sms_messages SET status = 'sending', attempts = :attempts, updated_at = now()
  WHERE id = :smsId AND status IN ('pending', 'retrying')
  RETURNING id
)
INSERT INTO sms_events (sms_message_id, status)
SELECT id, 'sending' FROM claimed
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

/**
 * Marks the SMS `sending` (with a timeline entry) if it is still to be sent. False when
 * another run of the job claimed it first, or it was sent or given up meanwhile.
 */
export async function claimSms(db: Knex, smsId: number, attempts: number) {
  return (await claimStatement(db, { smsId, attempts })).rowCount === 1;
}

export async function loadSmsStatus(db: Knex, smsId: number) {
  const row = await db('sms_messages').where({ id: smsId }).first<{ status: SmsStatus } | undefined>('status');
  return row?.status;
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
