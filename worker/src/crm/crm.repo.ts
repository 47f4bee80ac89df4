import type { Knex } from 'knex';
import type { CrmEvent } from '@guida/shared/jobs/crm';
import type { DeliveryStatus } from '@guida/shared/delivery-status';

export interface CrmDeliveryRow {
  id: number;
  lead_id: number | null;
  /** The lead the event is about, kept when the lead is erased (lead_id is then null). */
  subject_lead_id: number | null;
  event: CrmEvent;
  status: DeliveryStatus;
  created_at: Date;
}

export interface LeadRow {
  id: number;
  nome: string;
  cognome: string;
  email: string;
  telefono: string;
  ebook_type: string;
  source: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  gdpr_consent: boolean;
  marketing_consent: boolean;
  consent_version: string;
  consent_timestamp: Date | null;
  country: string | null;
  landing_path: string | null;
  created_at: Date;
}

export function loadCrmDelivery(db: Knex, deliveryId: number) {
  return db('crm_deliveries')
    .where({ id: deliveryId })
    .first<CrmDeliveryRow | undefined>('id', 'lead_id', 'subject_lead_id', 'event', 'status', 'created_at');
}

export function loadLead(db: Knex, leadId: number) {
  return db('ebook_requests').where({ id: leadId }).first<LeadRow | undefined>();
}

/**
 * Marks the delivery `sending` if it is still to be delivered; false when another run of
 * the job claimed it first (the row lock makes the second claim wait, then find it taken),
 * or it was delivered or given up meanwhile.
 */
export async function claimCrmDelivery(db: Knex, deliveryId: number, attempts: number) {
  const claimed = await db('crm_deliveries')
    .where({ id: deliveryId })
    .whereIn('status', ['pending', 'retrying'])
    .update({ status: 'sending', attempts, updated_at: db.fn.now() })
    .returning('id');
  return claimed.length === 1;
}

export async function recordCrmAttempt(
  db: Knex,
  deliveryId: number,
  outcome: {
    status: DeliveryStatus;
    attempts: number;
    responseStatus?: number | null;
    error?: string | null;
  },
) {
  await db('crm_deliveries')
    .where({ id: deliveryId })
    .update({
      status: outcome.status,
      attempts: outcome.attempts,
      response_status: outcome.responseStatus ?? null,
      last_error: outcome.error ?? null,
      updated_at: db.fn.now(),
      ...(outcome.status === 'delivered' ? { delivered_at: db.fn.now() } : {}),
    });
}
