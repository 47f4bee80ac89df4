import type { WorkerConfig } from './config';
import { SMTP_CLAIM_TIMEOUT_MS } from '@guida/shared/server/mailer';
import { TWILIO_REQUEST_TIMEOUT_MS } from './providers/twilio-sms-provider';
import { META_REQUEST_TIMEOUT_MS } from './conversions/meta-capi-client';

export interface ClaimTimeouts {
  sms: number;
  crm: number;
  email: number;
  conversions: number;
}

/**
 * How old a claim (`sending`) must be before another run takes it over: longer than a
 * live run can hold it, so only a worker that stopped mid-send leaves one that old
 * (decision 021). An SMS run makes at most two provider calls (asking whether an earlier
 * run's SMS arrived, then sending), each given up after the request timeout; the SMS
 * timeout must also fit the 2-minute promise.
 */
export function claimTimeouts(config: Pick<WorkerConfig, 'CRM_TIMEOUT_MS'>): ClaimTimeouts {
  return {
    sms: 3 * TWILIO_REQUEST_TIMEOUT_MS,
    crm: Math.max(30_000, 3 * config.CRM_TIMEOUT_MS),
    email: SMTP_CLAIM_TIMEOUT_MS,
    conversions: 3 * META_REQUEST_TIMEOUT_MS,
  };
}
