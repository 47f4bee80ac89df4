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
 * Stores leads with their consent proof, their pending SMS and CRM deliveries and their
 * download tokens, in one statement (so one transaction and one round trip for a whole
 * batch). Each lead is one element of every array parameter; phones are distinct within
 * a batch.
 *
 * The first CTE claims each phone's 24-hour window: the insert into recent_phone_requests
 * succeeds for a new phone or one whose window expired, and does nothing while a window
 * is open. ON CONFLICT waits for concurrent statements claiming the same phone, so two
 * parallel requests can never both create a lead (and both get an SMS); claiming in phone
 * order keeps two concurrent batches from deadlocking.
 *
 * A marketing consent is recorded only when given: gdpr_consents holds consents given,
 * with the hash of the address (what stays findable once the address is erased).
 * Prepared once per connection: planning this statement costs more than running it.
 */
const insertLeadsStatement = preparedStatement<{ telefono: string; lead_id: number; crm_delivery_id: number }>(
  'insert-leads',
  `
WITH input AS (
  SELECT * FROM unnest(
    :telefono::text[], :nome::text[], :cognome::text[], :email::text[], :ebookType::text[],
    :source::text[], :utmSource::text[], :utmMedium::text[], :utmCampaign::text[],
    :marketingConsent::boolean[], :ipAddress::text[], :userAgent::text[], :consentVersion::text[],
    :country::text[], :landingPath::text[], :privacyConsentHash::text[],
    :marketingConsentHash::text[], :downloadToken::text[], :downloadTokenTtlDays::int[]
  ) AS i(telefono, nome, cognome, email, ebook_type, source, utm_source, utm_medium,
    utm_campaign, marketing_consent, ip_address, user_agent, consent_version, country,
    landing_path, privacy_consent_hash, marketing_consent_hash, download_token, ttl_days)
),
claim AS (
  INSERT INTO recent_phone_requests AS r (telefono, lead_id, requested_at)
  SELECT telefono, nextval(pg_get_serial_sequence('ebook_requests', 'id')), now()
  FROM input ORDER BY telefono
  ON CONFLICT (telefono) DO UPDATE
    SET lead_id = EXCLUDED.lead_id, requested_at = EXCLUDED.requested_at
    WHERE r.requested_at < now() - interval '24 hours'
  RETURNING telefono, lead_id
),
lead AS (
  INSERT INTO ebook_requests (
    id, nome, cognome, email, telefono, ebook_type, source, utm_source, utm_medium,
    utm_campaign, gdpr_consent, marketing_consent, consent_timestamp, ip_address,
    user_agent, consent_version, country, landing_path
  )
  SELECT claim.lead_id, i.nome, i.cognome, i.email, i.telefono, i.ebook_type, i.source,
    i.utm_source, i.utm_medium, i.utm_campaign, true, i.marketing_consent, now(),
    i.ip_address, i.user_agent, i.consent_version, i.country, i.landing_path
  FROM claim JOIN input i USING (telefono)
  RETURNING id, telefono, email, encode(sha256(convert_to(lower(email), 'UTF8')), 'hex') AS email_hash
),
consents AS (
  INSERT INTO gdpr_consents (
    email, email_hash, consent_type, consented, consent_version, ip_address, user_agent,
    lead_id, consent_text_hash
  )
  SELECT lead.email, lead.email_hash, 'privacy', true, i.consent_version, i.ip_address,
    i.user_agent, lead.id, i.privacy_consent_hash
  FROM lead JOIN input i USING (telefono)
  UNION ALL
  SELECT lead.email, lead.email_hash, 'marketing', true, i.consent_version, i.ip_address,
    i.user_agent, lead.id, i.marketing_consent_hash
  FROM lead JOIN input i USING (telefono) WHERE i.marketing_consent
),
sms AS (
  INSERT INTO sms_messages (lead_id) SELECT id FROM lead
),
token AS (
  INSERT INTO download_tokens (lead_id, token, expires_at)
  SELECT lead.id, i.download_token, now() + make_interval(days => i.ttl_days)
  FROM lead JOIN input i USING (telefono)
),
crm AS (
  INSERT INTO crm_deliveries (lead_id, event) SELECT id, 'lead.created' FROM lead
  RETURNING id, lead_id
)
SELECT lead.telefono, lead.id AS lead_id, crm.id AS crm_delivery_id
FROM lead JOIN crm ON crm.lead_id = lead.id
`,
);

/**
 * Inserts a batch of leads whose phones are distinct, and answers for each (in order)
 * with its new lead, or with the lead that opened its phone's 24-hour window.
 */
export async function insertLeads(db: Knex, leads: NewLead[]): Promise<InsertLeadResult[]> {
  const results = new Array<InsertLeadResult | undefined>(leads.length);
  let remaining = leads.map((lead, index) => ({ lead, index }));
  // A second try covers a window that expired between the statement and the look-up.
  for (let attempt = 0; attempt < 2 && remaining.length > 0; attempt += 1) {
    const outcome = await tryInsertLeads(
      db,
      remaining.map(({ lead }) => lead),
    );
    remaining = remaining.filter(({ index }, position) => {
      results[index] = outcome[position];
      return outcome[position] === undefined;
    });
  }
  if (remaining.length > 0) throw new Error('could not insert the lead nor find the open phone window');
  return results as InsertLeadResult[];
}

async function tryInsertLeads(db: Knex, leads: NewLead[]): Promise<(InsertLeadResult | undefined)[]> {
  const column = <T>(value: (lead: NewLead) => T) => leads.map(value);
  const { rows } = await insertLeadsStatement(db, {
    telefono: column((lead) => lead.request.telefono),
    nome: column((lead) => lead.request.nome),
    cognome: column((lead) => lead.request.cognome),
    email: column((lead) => lead.request.email),
    ebookType: column((lead) => lead.request.ebookType),
    source: column((lead) => lead.request.source),
    utmSource: column((lead) => lead.request.utmSource ?? null),
    utmMedium: column((lead) => lead.request.utmMedium ?? null),
    utmCampaign: column((lead) => lead.request.utmCampaign ?? null),
    marketingConsent: column((lead) => lead.request.marketingConsent),
    ipAddress: column((lead) => lead.ipAddress),
    userAgent: column((lead) => lead.userAgent),
    consentVersion: column((lead) => lead.consentVersion),
    country: column((lead) => lead.request.country),
    landingPath: column((lead) => lead.request.landingPath ?? null),
    privacyConsentHash: column((lead) => lead.privacyConsentHash),
    marketingConsentHash: column((lead) => lead.marketingConsentHash),
    downloadToken: column((lead) => lead.downloadToken),
    downloadTokenTtlDays: column((lead) => lead.downloadTokenTtlDays),
  });
  const created = new Map(rows.map((row) => [row.telefono, row]));
  const waiting = leads.filter((lead) => !created.has(lead.request.telefono)).map((lead) => lead.request.telefono);

  // Phones whose window is open: answer with the lead that opened it.
  const openWindows = new Map<string, number>();
  if (waiting.length > 0) {
    const existing = await db('recent_phone_requests')
      .whereIn('telefono', waiting)
      .select<{ telefono: string; lead_id: number }[]>('telefono', 'lead_id');
    for (const row of existing) openWindows.set(row.telefono, row.lead_id);
  }
  return leads.map(({ request }): InsertLeadResult | undefined => {
    const row = created.get(request.telefono);
    if (row) return { created: true, leadId: row.lead_id, crmDeliveryId: row.crm_delivery_id };
    const leadId = openWindows.get(request.telefono);
    return leadId === undefined ? undefined : { created: false, leadId };
  });
}
