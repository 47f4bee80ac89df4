import type { Knex } from 'knex';
import { insertCrmDeliveries } from '@guida/shared/deliveries/crm-deliveries';
import {
  GDPR_REQUEST_UNCONFIRMED,
  type GdprProcessAction,
  type GdprRequestStatus,
  type GdprRequestType,
} from '@guida/shared/gdpr-rules';
import type { ConsentHistory } from '@guida/shared/schemas/gdpr';
import type { DataRequestList } from '@guida/shared/schemas/admin';
import { emailHash } from '@guida/shared/server/personal-data-hash';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

interface DataRequestListRow {
  id: number;
  email: string | null;
  request_type: string;
  status: string;
  submitted_at: Date;
  confirmed_at: Date | null;
  processed_at: Date | null;
  processed_by: string | null;
  completed_at: Date | null;
  notes: string | null;
  details: string | null;
  lead_ids: number[] | null;
}

/** Newest first, with the admin who handled each and the leads stored under its address. */
export async function listDataRequests(
  db: Knex,
  filters: { status?: GdprRequestStatus | undefined },
  page: number,
  pageSize: number,
): Promise<DataRequestList> {
  const base = () => {
    const query = db('gdpr_data_requests as r');
    if (filters.status) void query.where('r.status', filters.status);
    return query;
  };
  const [{ total } = { total: 0 }] = await base().count<{ total: number }[]>({ total: '*' });
  const rows = await base()
    .leftJoin('users as u', 'u.id', 'r.processed_by')
    .orderBy('r.submitted_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .select<DataRequestListRow[]>(
      'r.id',
      'r.email',
      'r.request_type',
      'r.status',
      'r.submitted_at',
      'r.confirmed_at',
      'r.processed_at',
      'u.username as processed_by',
      'r.completed_at',
      'r.notes',
      db.raw(`r.request_data->>'details' AS details`),
      // Lead emails are stored lower-case (the form's schema): the index on email applies.
      db.raw('ARRAY(SELECT l.id FROM ebook_requests l WHERE l.email = r.email ORDER BY l.id) AS lead_ids'),
    );
  return {
    total: Number(total),
    page,
    pageSize,
    items: rows.map((row) => ({
      id: row.id,
      email: row.email,
      requestType: row.request_type,
      status: row.status,
      submittedAt: row.submitted_at.toISOString(),
      confirmedAt: iso(row.confirmed_at),
      processedAt: iso(row.processed_at),
      processedBy: row.processed_by,
      completedAt: iso(row.completed_at),
      notes: row.notes,
      details: row.details,
      leadIds: row.lead_ids ?? [],
    })),
  };
}

export type ProcessOutcome =
  | { ok: true; requestType: GdprRequestType }
  | { ok: false; reason: 'not_found' | 'not_confirmed' | 'already_handled' };

/**
 * confirmed → processing (the worker job finishes it) or → rejected, recording who and
 * when. Only a confirmed request moves; the check and the change are one statement.
 */
export async function startProcessing(
  db: Knex,
  id: number,
  decision: { action: GdprProcessAction; notes: string | null; adminId: number },
): Promise<ProcessOutcome> {
  const reject = decision.action === 'reject';
  const [row] = await db('gdpr_data_requests')
    .where({ id, status: 'confirmed' })
    .update({
      status: reject ? 'rejected' : 'processing',
      processed_at: db.fn.now(),
      processed_by: decision.adminId,
      notes: decision.notes,
      ...(reject ? { completed_at: db.fn.now() } : {}),
    })
    .returning<{ request_type: GdprRequestType }[]>('request_type');
  if (row) return { ok: true, requestType: row.request_type };
  const existing = await db('gdpr_data_requests').where({ id }).first<{ status: GdprRequestStatus } | undefined>('status');
  if (!existing) return { ok: false, reason: 'not_found' };
  return { ok: false, reason: existing.status === GDPR_REQUEST_UNCONFIRMED ? 'not_confirmed' : 'already_handled' };
}

/** What proves the consents of an address, including pseudonymised proofs of erased leads. */
export async function consentHistory(db: Knex, email: string): Promise<ConsentHistory> {
  const hash = emailHash(email);
  const consents = await db('gdpr_consents')
    .where((query) => void query.where('email', email).orWhere('email_hash', hash))
    .orderBy('timestamp')
    .orderBy('id')
    .select<
      {
        id: number;
        lead_id: number | null;
        email: string | null;
        consent_type: string;
        consented: boolean;
        consent_version: string;
        consent_text_hash: string | null;
        timestamp: Date;
        ip_address: string | null;
        user_agent: string | null;
      }[]
    >('id', 'lead_id', 'email', 'consent_type', 'consented', 'consent_version', 'consent_text_hash', 'timestamp', 'ip_address', 'user_agent');
  const leads = await db('ebook_requests')
    .where({ email })
    .orderBy('id')
    .select<
      {
        id: number;
        created_at: Date;
        gdpr_consent: boolean;
        marketing_consent: boolean;
        marketing_consent_version: string | null;
        consent_version: string;
        consent_timestamp: Date | null;
        ip_address: string | null;
        user_agent: string | null;
      }[]
    >(
      'id',
      'created_at',
      'gdpr_consent',
      'marketing_consent',
      'marketing_consent_version',
      'consent_version',
      'consent_timestamp',
      'ip_address',
      'user_agent',
    );
  const requests = await db('gdpr_data_requests')
    .where({ email_hash: hash })
    .orderBy('id')
    .select<
      { id: number; request_type: string; status: string; submitted_at: Date; confirmed_at: Date | null; completed_at: Date | null }[]
    >('id', 'request_type', 'status', 'submitted_at', 'confirmed_at', 'completed_at');
  const erasures = await db('gdpr_erasures')
    .where({ email_hash: hash })
    .orderBy('id')
    .select<{ id: number; reason: string; erased_at: Date; lead_ids: number[] }[]>('id', 'reason', 'erased_at', 'lead_ids');
  return {
    email,
    consents: consents.map((row) => ({
      id: row.id,
      leadId: row.lead_id,
      consentType: row.consent_type,
      consented: row.consented,
      consentVersion: row.consent_version,
      consentTextHash: row.consent_text_hash,
      timestamp: row.timestamp.toISOString(),
      ipAddress: row.ip_address,
      userAgent: row.user_agent,
      pseudonymised: row.email === null,
    })),
    leads: leads.map((row) => ({
      id: row.id,
      createdAt: row.created_at.toISOString(),
      gdprConsent: row.gdpr_consent,
      marketingConsent: row.marketing_consent,
      marketingConsentVersion: row.marketing_consent_version,
      consentVersion: row.consent_version,
      consentTimestamp: iso(row.consent_timestamp),
      ipAddress: row.ip_address,
      userAgent: row.user_agent,
    })),
    dataRequests: requests.map((row) => ({
      id: row.id,
      requestType: row.request_type,
      status: row.status,
      submittedAt: row.submitted_at.toISOString(),
      confirmedAt: iso(row.confirmed_at),
      completedAt: iso(row.completed_at),
    })),
    erasures: erasures.map((row) => ({
      id: row.id,
      reason: row.reason,
      erasedAt: row.erased_at.toISOString(),
      leadIds: row.lead_ids,
    })),
  };
}

const RECTIFIABLE = ['nome', 'cognome', 'email', 'telefono'] as const;

/**
 * Corrects a lead's personal fields and writes the lead.updated delivery for the CRM,
 * atomically. Returns the names of the fields that changed (none: nothing written), or
 * null when the lead does not exist.
 */
export async function rectifyLead(
  db: Knex,
  leadId: number,
  values: { nome: string; cognome: string; email: string; telefono: string; country: string },
): Promise<{ changed: string[]; crmDeliveryId: number | null } | null> {
  return db.transaction(async (trx) => {
    const lead = await trx('ebook_requests')
      .where({ id: leadId })
      .forUpdate()
      .first<Record<(typeof RECTIFIABLE)[number], string> | undefined>(...RECTIFIABLE);
    if (!lead) return null;
    const changed = RECTIFIABLE.filter((field) => lead[field] !== values[field]);
    if (changed.length === 0) return { changed, crmDeliveryId: null };
    await trx('ebook_requests').where({ id: leadId }).update(values);
    if (changed.includes('email')) {
      // The proof keeps its facts; only whose address it is gets corrected.
      await trx('gdpr_consents')
        .where({ lead_id: leadId })
        .whereNotNull('email')
        .update({ email: values.email, email_hash: emailHash(values.email) });
    }
    if (changed.includes('telefono')) {
      // The 24-hour window belonged to the wrong number.
      await trx('recent_phone_requests').where({ lead_id: leadId }).delete();
    }
    const [delivery] = await insertCrmDeliveries(trx, [{ leadId, subjectLeadId: leadId, event: 'lead.updated' }]);
    return { changed, crmDeliveryId: delivery!.id };
  });
}
