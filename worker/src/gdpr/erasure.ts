import type { Knex } from 'knex';
import { CONVERSION_SKIP_REASONS, skipUnsentConversionUploads } from '@guida/shared/deliveries/conversion-uploads';
import { insertCrmDeliveries, settleCrmDeliveriesForErasure } from '@guida/shared/deliveries/crm-deliveries';
import { forgetEmailErrors } from '@guida/shared/deliveries/email-deliveries';
import { emailHash } from '@guida/shared/server/personal-data-hash';

export type ErasureReason = 'request' | 'retention';

export interface LeadIdentity {
  id: number;
  email: string;
  telefono: string;
}

export interface ErasureResult {
  erasureId: number;
  leadIds: number[];
  /** The lead.deleted deliveries written; enqueue them once the transaction committed. */
  crmDeliveries: { id: number; leadId: number }[];
  erasedRows: Record<string, number>;
}

const SHA256_OF_EMAIL = `encode(sha256(convert_to(lower(email), 'UTF8')), 'hex')`;
/** What an audit entry that mentioned the person says instead. */
const REDACTED_AUDIT_DETAILS = { redacted: 'personal data erased' };

/** The leads stored with an address, locked until the caller's transaction ends. */
export function leadsOfEmail(trx: Knex.Transaction, email: string) {
  return trx('ebook_requests')
    .where('email', email.toLowerCase())
    .orderBy('id')
    .forUpdate()
    .select<LeadIdentity[]>('id', 'email', 'telefono');
}

async function countAttached(trx: Knex.Transaction, leadIds: number[]) {
  const count = async (query: Knex.QueryBuilder) => Number((await query.count({ n: '*' }).first())?.n ?? 0);
  return {
    sms_messages: await count(trx('sms_messages').whereIn('lead_id', leadIds)),
    sms_events: await count(
      trx('sms_events').whereIn('sms_message_id', trx('sms_messages').select('id').whereIn('lead_id', leadIds)),
    ),
    download_tokens: await count(trx('download_tokens').whereIn('lead_id', leadIds)),
    guide_downloads: await count(trx('guide_downloads').whereIn('lead_id', leadIds)),
    email_messages: await count(trx('email_messages').whereIn('lead_id', leadIds)),
    recent_phone_requests: await count(trx('recent_phone_requests').whereIn('lead_id', leadIds)),
  };
}

/**
 * Erases leads and everything that holds their personal data, in the caller's
 * transaction, and records that it happened (ids and counts, never the data):
 *
 * - the leads themselves; their SMS rows and events, download token and downloads, email
 *   rows and 24-hour phone window go with them (ON DELETE CASCADE);
 * - CRM deliveries stay (the CRM must hear about the deletion): those still on their
 *   way (a post in flight too) are skipped, errors cleared, and each remembers its lead
 *   id in subject_lead_id;
 * - consent proofs stay pseudonymised: address, network and browser blanked, the
 *   address's hash kept, so the proof can still be found for that address later;
 * - outbox messages sent to the person, and admin audit entries that mention the
 *   address or the phone number.
 *
 * With `person`, also everything stored under that address without a lead: consents,
 * other data requests (their address, text, network, exports and email errors). The
 * request being processed keeps its address for the confirmation email; see
 * forgetDeletionRequester. Analytics rows carry no identity and cannot be linked to a
 * lead (docs/decisions/013-data-rights-erasure-and-consent-proof.md): they are left to
 * their own retention.
 */
export async function eraseLeads(
  trx: Knex.Transaction,
  leads: LeadIdentity[],
  options: { reason: ErasureReason; dataRequestId?: number | null; person?: { email: string } },
): Promise<ErasureResult> {
  const leadIds = leads.map((lead) => lead.id);
  const person = options.person ? options.person.email.toLowerCase() : null;
  const identifiers = [
    ...new Set([...leads.flatMap((lead) => [lead.email.toLowerCase(), lead.telefono]), ...(person ? [person] : [])]),
  ];
  const erasedRows: Record<string, number> = await countAttached(trx, leadIds);

  erasedRows.crm_deliveries_anonymised = await settleCrmDeliveriesForErasure(trx, leadIds);
  // Conversion uploads keep the lead's id (subject_lead_id) and what went out; nothing more goes (decision 061).
  erasedRows.conversion_uploads_skipped = await skipUnsentConversionUploads(trx, leadIds, CONVERSION_SKIP_REASONS.erased);

  erasedRows.gdpr_consents_pseudonymised = await trx('gdpr_consents')
    .where((query) => {
      void query.whereIn('lead_id', leadIds);
      if (person) void query.orWhere('email', person);
    })
    .update({
      email_hash: trx.raw(`coalesce(email_hash, ${SHA256_OF_EMAIL})`),
      email: null,
      ip_address: null,
      user_agent: null,
    });

  erasedRows.outbox_messages = identifiers.length
    ? await trx('outbox_messages').whereIn('recipient', identifiers).delete()
    : 0;
  erasedRows.admin_audit_log_redacted = identifiers.length
    ? await trx('admin_audit_log')
        .whereNotNull('details')
        .where((query) => {
          for (const identifier of identifiers) {
            void query.orWhereRaw('position(? in lower(details::text)) > 0', [identifier.toLowerCase()]);
          }
        })
        .update({ details: JSON.stringify(REDACTED_AUDIT_DETAILS) })
    : 0;

  const hash = person ? emailHash(person) : null;
  if (person && hash) {
    const requestsOfPerson = () =>
      trx('gdpr_data_requests')
        .select('id')
        .where((query) => void query.where('email_hash', hash).orWhere('email', person));
    erasedRows.gdpr_exports = await trx('gdpr_exports').whereIn('data_request_id', requestsOfPerson()).delete();
    await forgetEmailErrors(trx, requestsOfPerson());
    erasedRows.gdpr_data_requests_anonymised = await trx('gdpr_data_requests')
      .whereIn('id', requestsOfPerson())
      .update({
        email_hash: trx.raw(`coalesce(email_hash, ${SHA256_OF_EMAIL})`),
        // The request being processed keeps its address until the confirmation is sent.
        email: trx.raw('CASE WHEN id = ? THEN email ELSE NULL END', [options.dataRequestId ?? 0]),
        request_data: null,
        ip_address: null,
        user_agent: null,
      });
  }

  erasedRows.ebook_requests = await trx('ebook_requests').whereIn('id', leadIds).delete();

  const crmDeliveries = await insertCrmDeliveries(
    trx,
    leadIds.map((leadId) => ({ leadId: null, subjectLeadId: leadId, event: 'lead.deleted' as const })),
  );

  const [erasure] = await trx('gdpr_erasures')
    .insert({
      data_request_id: options.dataRequestId ?? null,
      reason: options.reason,
      email_hash: hash,
      lead_ids: leadIds,
      erased_rows: JSON.stringify(erasedRows),
    })
    .returning<{ id: number }[]>('id');
  return { erasureId: erasure!.id, leadIds, crmDeliveries, erasedRows };
}

/**
 * The last trace of a deletion request's address, once its confirmation email went out
 * (or failed for good): the address itself, the outbox copy of that email, email errors.
 */
export async function forgetDeletionRequester(db: Knex, dataRequestId: number) {
  await db.transaction(async (trx) => {
    const request = await trx('gdpr_data_requests')
      .where({ id: dataRequestId, request_type: 'deletion' })
      .whereNotNull('erased_at')
      .forUpdate()
      .first<{ email: string | null } | undefined>('email');
    if (!request?.email) return;
    await trx('outbox_messages').where({ recipient: request.email }).delete();
    await forgetEmailErrors(trx, [dataRequestId]);
    await trx('gdpr_data_requests').where({ id: dataRequestId }).update({ email: null });
  });
}
