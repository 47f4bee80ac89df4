import type { Knex } from 'knex';
import type { CrmEvent, CrmVerificationEvent } from '../jobs/crm';
import { CRM_TRANSITIONS, type DeliveryStatus } from './delivery-statuses';
import {
  applyTransition,
  applyTransitionOrRefuse,
  claimRow,
  dueRows,
  isClaimable,
  isTakeOver,
  sqlList,
  statusOf,
  type DueOptions,
} from './delivery-table';

/**
 * crm_deliveries: every write to it. The lead.created delivery of a lead is created with
 * the lead (api/src/leads/leads.repo.ts, one statement for a whole batch of leads).
 */

const TABLE = 'crm_deliveries';

export interface CrmDelivery {
  id: number;
  lead_id: number | null;
  /** The lead the event is about, kept when the lead is erased (lead_id is then null). */
  subject_lead_id: number | null;
  event: CrmEvent;
  status: DeliveryStatus;
  attempts: number;
  created_at: Date;
}

export function loadCrmDelivery(db: Knex, deliveryId: number) {
  return db(TABLE)
    .where({ id: deliveryId })
    .first<CrmDelivery | undefined>('id', 'lead_id', 'subject_lead_id', 'event', 'status', 'attempts', 'created_at');
}

export const crmDeliveryStatus = (db: Knex, deliveryId: number) => statusOf<DeliveryStatus>(db, TABLE, deliveryId);

/** True when a worker may try the delivery: claim it, or take over a claim. */
export const crmDeliveryIsClaimable = (status: DeliveryStatus) => isClaimable(CRM_TRANSITIONS, status);

/**
 * Takes the delivery (`sending`) before posting; null when another run took it first,
 * or it was delivered or given up meanwhile. A claim older than `claimTimeoutMs` was left
 * by a worker that stopped mid-post and is taken over: the CRM may get the post twice,
 * with the same delivery id to drop the repeat by.
 */
export const claimCrmDelivery = (
  db: Knex,
  delivery: { id: number; status: DeliveryStatus },
  attempts: number,
  claimTimeoutMs: number,
) => claimRow(db, TABLE, CRM_TRANSITIONS, delivery, { attempts }, claimTimeoutMs);

export const recordCrmDelivered = (db: Knex, deliveryId: number, outcome: { attempts: number; responseStatus: number }) =>
  applyTransition(db, TABLE, deliveryId, CRM_TRANSITIONS.recordDelivered, {
    attempts: outcome.attempts,
    response_status: outcome.responseStatus,
    last_error: null,
    delivered_at: db.fn.now(),
  });

/** The CRM refused or could not be reached: retried later, or given up (`final`). */
export const recordCrmFailure = (
  db: Knex,
  deliveryId: number,
  failure: { final: boolean; attempts: number; responseStatus: number | null; error: string },
) =>
  applyTransition(db, TABLE, deliveryId, failure.final ? CRM_TRANSITIONS.recordFailure : CRM_TRANSITIONS.recordRetry, {
    attempts: failure.attempts,
    response_status: failure.responseStatus,
    last_error: failure.error,
  });

/** Nothing to post: no CRM is configured, or the lead was erased first. */
export const skipCrmDelivery = (db: Knex, deliveryId: number, reason: string) =>
  applyTransition(db, TABLE, deliveryId, CRM_TRANSITIONS.skip, { attempts: 0, response_status: null, last_error: reason });

/**
 * The admin's "send to the CRM again" for a lead's lead.created delivery. Null when the
 * lead has none; a DeliveryTransitionError while it is on its way.
 */
export async function reopenCrmDelivery(db: Knex, leadId: number) {
  const delivery = await db(TABLE).where({ lead_id: leadId, event: 'lead.created' }).first<{ id: number } | undefined>('id');
  if (!delivery) return null;
  await applyTransitionOrRefuse(db, 'crm', 'reopen', TABLE, delivery.id, CRM_TRANSITIONS.reopen, { last_error: null });
  return delivery.id;
}

/** The admin's retry of a failed job: the delivery must have failed (else DeliveryTransitionError). */
export const retryFailedCrmDelivery = (db: Knex, deliveryId: number) =>
  applyTransitionOrRefuse(db, 'crm', 'retry', TABLE, deliveryId, CRM_TRANSITIONS.retryFailed);

/** New lead.updated / lead.deleted deliveries, in the caller's transaction; their ids in order. */
export async function insertCrmDeliveries(
  trx: Knex.Transaction,
  deliveries: { leadId: number | null; subjectLeadId: number; event: CrmEvent }[],
) {
  if (deliveries.length === 0) return [];
  const rows = await trx(TABLE)
    .insert(deliveries.map((d) => ({ lead_id: d.leadId, subject_lead_id: d.subjectLeadId, event: d.event })))
    .returning<{ id: number; subject_lead_id: number }[]>(['id', 'subject_lead_id']);
  return rows.map((row) => ({ id: row.id, leadId: row.subject_lead_id }));
}

/**
 * SQL for a statement's CTE: the verification event's delivery (decision 059) of each lead
 * the CTE `leadIdsCte` returns (column `id`), once per lead (a unique index per event,
 * migration 20261206090000); returns the new rows' `id`. In the statement that set the
 * lead's timestamp, so the event goes out exactly when it was first set.
 */
export const insertVerificationDeliverySql = (event: CrmVerificationEvent, leadIdsCte: string) => `
INSERT INTO ${TABLE} (lead_id, subject_lead_id, event)
SELECT id, id, '${event}' FROM ${leadIdsCte}
ON CONFLICT (lead_id) WHERE event = '${event}' DO NOTHING
RETURNING id`;

/**
 * Erasure of these leads, in the caller's transaction: every delivery remembers its lead
 * in subject_lead_id and loses its error text; those still on their way (a post in
 * flight included) are skipped, so nothing more about the lead goes out but lead.deleted.
 */
export function settleCrmDeliveriesForErasure(trx: Knex.Transaction, leadIds: number[]) {
  const settle = CRM_TRANSITIONS.settleForErasure;
  return trx(TABLE)
    .whereIn('lead_id', leadIds)
    .update({
      subject_lead_id: trx.raw('coalesce(subject_lead_id, lead_id)'),
      last_error: null,
      status: trx.raw(`CASE WHEN status IN (${sqlList(settle.from)}) THEN ? ELSE status END`, [settle.to]),
      updated_at: trx.fn.now(),
    });
}

/** The lead.deleted deliveries of these erased leads that are still to send. */
export function unsentLeadDeletedDeliveries(db: Knex, leadIds: number[]) {
  return db(TABLE)
    .where({ event: 'lead.deleted' })
    .whereIn('status', CRM_TRANSITIONS.claim.from)
    .whereIn('subject_lead_id', leadIds)
    .select<{ id: number; subject_lead_id: number }[]>('id', 'subject_lead_id');
}

/** Deliveries a worker should run now (see dueRows); an erased lead's are named by subject_lead_id. */
export async function listCrmDue(db: Knex, options: DueOptions) {
  const rows = await dueRows(db, TABLE, CRM_TRANSITIONS.claim.from, CRM_TRANSITIONS.takeOver.from, options)
    .whereRaw('coalesce(lead_id, subject_lead_id) IS NOT NULL')
    .select<{ id: number; lead_id: number; event: CrmEvent; status: DeliveryStatus }[]>(
      'id',
      db.raw('coalesce(lead_id, subject_lead_id) AS lead_id'),
      'event',
      'status',
    );
  return rows.map((row) => ({
    deliveryId: row.id,
    leadId: row.lead_id,
    event: row.event,
    abandoned: isTakeOver(CRM_TRANSITIONS, row.status),
  }));
}

