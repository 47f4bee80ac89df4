import type { Knex } from 'knex';
import type { EbookRequest } from '@guida/shared/schemas/lead';
import { preparedStatement } from '@guida/shared/server/prepared-statement';

export interface NewLead {
  request: EbookRequest;
  ipAddress: string | null;
  userAgent: string | null;
  consentVersion: string;
  privacyConsentHash: string;
  marketingConsentHash: string;
  downloadToken: string;
  downloadTokenTtlDays: number;
}

export type InsertLeadResult =
  | { created: true; leadId: number; crmDeliveryId: number }
  | { created: false; leadId: number };

/**
 * Stores a lead with its consent proof, its pending SMS and CRM deliveries and its
 * download token, in one statement (so one transaction and one round trip).
 *
 * The first CTE claims the phone's 24-hour window: the insert into recent_phone_requests
 * succeeds for a new phone or one whose window expired, and does nothing while a window
 * is open. ON CONFLICT waits for concurrent requests for the same phone, so two parallel
 * requests can never both create a lead (and both get an SMS).
 *
 * A marketing consent is recorded only when given: gdpr_consents holds consents given,
 * with the hash of the address (what stays findable once the address is erased).
 * Prepared once per connection: planning this statement costs more than running it.
 */
const insertLeadStatement = preparedStatement<{ lead_id: number; crm_delivery_id: number }>('insert-lead', `
WITH claim AS (
  INSERT INTO recent_phone_requests AS r (telefono, lead_id, requested_at)
  VALUES (:telefono, nextval(pg_get_serial_sequence('ebook_requests', 'id')), now())
  ON CONFLICT (telefono) DO UPDATE
    SET lead_id = EXCLUDED.lead_id, requested_at = EXCLUDED.requested_at
    WHERE r.requested_at < now() - interval '24 hours'
  RETURNING lead_id
),
lead AS (
  INSERT INTO ebook_requests (
    id, nome, cognome, email, telefono, ebook_type, source, utm_source, utm_medium,
    utm_campaign, gdpr_consent, marketing_consent, consent_timestamp, ip_address,
    user_agent, consent_version, country, landing_path
  )
  SELECT lead_id, :nome, :cognome, :email, :telefono, :ebookType, :source, :utmSource,
    :utmMedium, :utmCampaign, true, :marketingConsent, now(), :ipAddress, :userAgent,
    :consentVersion, :country, :landingPath
  FROM claim
  RETURNING id, email, encode(sha256(convert_to(lower(email), 'UTF8')), 'hex') AS email_hash
),
consents AS (
  INSERT INTO gdpr_consents (
    email, email_hash, consent_type, consented, consent_version, ip_address, user_agent,
    lead_id, consent_text_hash
  )
  SELECT email, email_hash, 'privacy', true, :consentVersion, :ipAddress, :userAgent, id,
    :privacyConsentHash
  FROM lead
  UNION ALL
  SELECT email, email_hash, 'marketing', true, :consentVersion, :ipAddress, :userAgent, id,
    :marketingConsentHash
  FROM lead WHERE :marketingConsent
),
sms AS (
  INSERT INTO sms_messages (lead_id) SELECT id FROM lead
),
token AS (
  INSERT INTO download_tokens (lead_id, token, expires_at)
  SELECT id, :downloadToken, now() + make_interval(days => :downloadTokenTtlDays)
  FROM lead
),
crm AS (
  INSERT INTO crm_deliveries (lead_id, event) SELECT id, 'lead.created' FROM lead
  RETURNING id
)
SELECT lead.id AS lead_id, crm.id AS crm_delivery_id FROM lead, crm
`);

export async function insertLead(db: Knex, lead: NewLead): Promise<InsertLeadResult> {
  // A second try covers a window that expired between the two statements below.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const result = await tryInsertLead(db, lead);
    if (result) return result;
  }
  throw new Error('could not insert the lead nor find the open phone window');
}

async function tryInsertLead(db: Knex, lead: NewLead): Promise<InsertLeadResult | null> {
  const { request } = lead;
  const result = await insertLeadStatement(db, {
    telefono: request.telefono,
    nome: request.nome,
    cognome: request.cognome,
    email: request.email,
    ebookType: request.ebookType,
    source: request.source,
    utmSource: request.utmSource,
    utmMedium: request.utmMedium,
    utmCampaign: request.utmCampaign,
    marketingConsent: request.marketingConsent,
    ipAddress: lead.ipAddress,
    userAgent: lead.userAgent,
    consentVersion: lead.consentVersion,
    country: request.country,
    landingPath: request.landingPath,
    privacyConsentHash: lead.privacyConsentHash,
    marketingConsentHash: lead.marketingConsentHash,
    downloadToken: lead.downloadToken,
    downloadTokenTtlDays: lead.downloadTokenTtlDays,
  });
  const row = result.rows[0];
  if (row) return { created: true, leadId: row.lead_id, crmDeliveryId: row.crm_delivery_id };

  // The phone's window is open: answer with the lead that opened it.
  const existing = await db('recent_phone_requests')
    .where({ telefono: request.telefono })
    .first<{ lead_id: number } | undefined>('lead_id');
  return existing ? { created: false, leadId: existing.lead_id } : null;
}
