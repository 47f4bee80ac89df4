import type { Knex } from 'knex';
import {
  ATTRIBUTION_COLUMNS,
  CLICK_ID_FIELDS,
  FIRST_TOUCH_PREFIX,
  pickTouch,
  TOUCH_COLUMNS,
  touchColumns,
} from '@guida/shared/attribution-rules';
import type { EbookRequest } from '@guida/shared/schemas/lead';
import { GUIDE_LINK_EMAIL } from '@guida/shared/jobs/email';
import { insertLeadConversionSql } from '@guida/shared/deliveries/conversion-uploads';
import { preparedStatement } from '@guida/shared/server/prepared-statement';
import { marketingChoiceSql } from '../consent';
import { lockOfferAndReadPlaces } from '../offer';

/** The lead's attribution columns (last touch, then first touch), sent as one jsonb per lead. */
function attributionOf(request: EbookRequest) {
  return { ...touchColumns(pickTouch(request)), ...touchColumns(request.firstTouch, FIRST_TOUCH_PREFIX) };
}

const CLICK_ID_COLUMNS = new Set(
  CLICK_ID_FIELDS.flatMap((field) => [TOUCH_COLUMNS[field], `${FIRST_TOUCH_PREFIX}${TOUCH_COLUMNS[field]}`]),
);
/** Each attribution column's value in the insert: a click id only with the ad consent granted. */
const attributionValues = ATTRIBUTION_COLUMNS.map((column) =>
  CLICK_ID_COLUMNS.has(column) ? `CASE WHEN i.ad_granted THEN i.attribution->>'${column}' END` : `i.attribution->>'${column}'`,
).join(', ');

export interface NewLead {
  request: EbookRequest;
  ipAddress: string | null;
  userAgent: string | null;
  /** The privacy text's version (the lead's `consent_version`). */
  consentVersion: string;
  privacyConsentHash: string;
  /** The marketing text's own version; stored only with a marketing consent given. */
  marketingConsentVersion: string;
  marketingConsentHash: string;
  downloadTokenTtlDays: number;
  /** The key of the phone's place in the offer (placeKeyOf in api/src/offer). */
  placeKey: Buffer;
  /** What the SMS budgets count the lead's SMS by besides its number (decision 052). */
  smsBudget: { trusted: boolean; address: string | null };
}

/** What the configuration asks of an insert besides the offer. */
export interface IntakeRules {
  /** The Meta Conversions API is on (decision 061): a consenting lead gets its `lead` upload. */
  metaConversions: boolean;
}

/** What the offer asks of an insert (decision 047). */
export interface PlaceRules {
  /** Places are taken from this time on (OFFER_STARTS_AT); null: from the first lead. */
  startsAt: Date | null;
  /** FREE_PLACES_TOTAL; null: no cap, no lock. */
  placesTotal: number | null;
}

export interface InsertLeadResult {
  leadId: number;
  crmDeliveryId: number;
  /** The lead that opened this phone's 24-hour window; null when this lead opened it. */
  repeatOf: number | null;
  /**
   * A repeat whose window another address opened gets its link by email: the phone may be
   * this visitor's, claimed first by someone else (whose SMS it received, with their name).
   */
  emailMessageId: number | null;
  /** The lead's Meta conversion upload (decision 061); null without the ad consent, or with Meta off. */
  conversionUploadId: number | null;
}

/**
 * Stores leads with their consent proof and CRM delivery, and for a lead that opens its
 * phone's window also its pending SMS and its download link, in one statement (so one
 * transaction and one round trip for a whole batch). Each lead is one element of every
 * array parameter; phones are distinct within a batch.
 *
 * Every submission is stored (decision 029). The claim CTE takes each phone's 24-hour
 * window: a new phone, or one whose window expired, gets this lead as the window's
 * lead; while a window is open the row keeps its lead, and this lead becomes a repeat of
 * it (`repeat_of`: no SMS, no link of its own, unless the window's lead gave another email
 * address: then its link goes by email, since someone else may have claimed this visitor's
 * phone first; once per address and window, decision 055). The conflict branch always updates (to
 * the same values while the window is open) so that RETURNING gives the window's lead
 * in both cases; ON CONFLICT waits for concurrent statements claiming the same phone,
 * so two parallel requests can never both open a window (and both get an SMS); claiming
 * in phone order keeps two concurrent batches from deadlocking.
 *
 * The download link's token is not stored: the worker derives it when it sends the SMS
 * and stores only its hash (decision 029). The SMS keeps what its budgets count it by
 * besides its number: whether the lead was trusted and its client's address digest
 * (decision 052; the network is the lead's `ip_address`).
 *
 * Every lead takes its phone's place in the offer (decision 047) unless the phone holds
 * one taken since the offer's start: a repeat, within its 24 hours or later, takes none,
 * and a place taken before the start is taken again (a new offer). The place's row keeps
 * only the phone's keyed hash and when it was taken, so it outlives the lead's erasure.
 *
 * Ad data only with consent (decision 049): the statement reads, for each lead, the latest
 * valid cookie choice recorded under the session id the browser sent (none for a form sent
 * without JavaScript). Only when that choice accepts marketing does the lead keep its click
 * ids, and record `ad_user_data` and `ad_personalization` as 'granted'; otherwise every click
 * id of both touches is left out (the UTM fields and the referring host stay) and both are
 * 'denied'. The browser's word alone grants nothing. A lead the consent rule allows
 * (shared/src/server/ad-conversion-consent.ts) also gets its pending Meta `Lead`
 * conversion upload here while Meta is on (decision 061); the worker checks the
 * suppression list before anything is sent.
 *
 * A marketing consent is recorded only when given, under its own text version:
 * gdpr_consents holds consents given, with the hash of the address (what stays findable
 * once the address is erased).
 * The attribution columns (24) travel as one jsonb per lead rather than one array each.
 * Prepared once per connection: planning this statement costs more than running it.
 */
const insertLeadsStatement = preparedStatement<{
  telefono: string;
  lead_id: number;
  crm_delivery_id: number;
  repeat_of: number | null;
  email_message_id: number | null;
  conversion_upload_id: number | null;
}>(
  'insert-leads',
  `
WITH input AS (
  SELECT i.*, nextval(pg_get_serial_sequence('ebook_requests', 'id'))::int AS lead_id,
    coalesce(${marketingChoiceSql('i.cookie_consent_session_id')}, false) AS ad_granted
  FROM unnest(
    :telefono::text[], :nome::text[], :cognome::text[], :email::text[], :ebookType::text[],
    :source::text[], :attribution::jsonb[],
    :marketingConsent::boolean[], :ipAddress::text[], :userAgent::text[], :consentVersion::text[],
    :country::text[], :landingPath::text[], :privacyConsentHash::text[],
    :marketingConsentVersion::text[], :marketingConsentHash::text[], :downloadTokenTtlDays::int[],
    :heroVariant::text[], :placeKey::bytea[], :cookieConsentSessionId::text[],
    :smsTrusted::boolean[], :budgetAddress::text[]
  ) AS i(telefono, nome, cognome, email, ebook_type, source, attribution, marketing_consent, ip_address, user_agent, consent_version, country,
    landing_path, privacy_consent_hash, marketing_consent_version, marketing_consent_hash,
    ttl_days, hero_variant, place_key, cookie_consent_session_id, sms_trusted, budget_address)
),
place AS (
  INSERT INTO offer_places AS p (phone_key, taken_at)
  SELECT place_key, now() FROM input ORDER BY place_key
  ON CONFLICT (phone_key) DO UPDATE SET taken_at = EXCLUDED.taken_at
  WHERE p.taken_at < :offerStartsAt::timestamptz
),
claim AS (
  INSERT INTO recent_phone_requests AS r (telefono, lead_id, requested_at)
  SELECT telefono, lead_id, now() FROM input ORDER BY telefono
  ON CONFLICT (telefono) DO UPDATE SET
    lead_id = CASE WHEN r.requested_at < now() - interval '24 hours' THEN EXCLUDED.lead_id ELSE r.lead_id END,
    requested_at = CASE WHEN r.requested_at < now() - interval '24 hours' THEN EXCLUDED.requested_at ELSE r.requested_at END
  RETURNING telefono, lead_id AS window_lead_id
),
lead AS (
  INSERT INTO ebook_requests (
    id, nome, cognome, email, telefono, ebook_type, source, ${ATTRIBUTION_COLUMNS.join(', ')},
    gdpr_consent, marketing_consent, marketing_consent_version,
    consent_timestamp, ip_address, user_agent, consent_version, country, landing_path,
    repeat_of, hero_variant, ad_user_data, ad_personalization
  )
  SELECT i.lead_id, i.nome, i.cognome, i.email, i.telefono, i.ebook_type, i.source,
    ${attributionValues}, true, i.marketing_consent,
    CASE WHEN i.marketing_consent THEN i.marketing_consent_version END, now(),
    i.ip_address, i.user_agent, i.consent_version, i.country, i.landing_path,
    NULLIF(claim.window_lead_id, i.lead_id), i.hero_variant,
    CASE WHEN i.ad_granted THEN 'granted' ELSE 'denied' END, CASE WHEN i.ad_granted THEN 'granted' ELSE 'denied' END
  FROM input i JOIN claim USING (telefono)
  RETURNING id, telefono, email, repeat_of, ad_user_data, marketing_consent_withdrawn_at,
    encode(sha256(convert_to(lower(email), 'UTF8')), 'hex') AS email_hash
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
  SELECT lead.email, lead.email_hash, 'marketing', true, i.marketing_consent_version, i.ip_address,
    i.user_agent, lead.id, i.marketing_consent_hash
  FROM lead JOIN input i USING (telefono) WHERE i.marketing_consent
),
sms AS (
  INSERT INTO sms_messages (lead_id, trusted, budget_address)
  SELECT lead.id, i.sms_trusted, i.budget_address FROM lead JOIN input i USING (telefono) WHERE lead.repeat_of IS NULL
),
claimed_by_another AS (
  SELECT lead.id FROM lead JOIN ebook_requests first ON first.id = lead.repeat_of
  WHERE lower(first.email) <> lower(lead.email)
    AND NOT EXISTS (
      SELECT 1 FROM ebook_requests earlier
      WHERE earlier.repeat_of = lead.repeat_of AND lower(earlier.email) = lower(lead.email)
    )
),
link AS (
  INSERT INTO download_tokens (lead_id, expires_at)
  SELECT lead.id, now() + make_interval(days => i.ttl_days)
  FROM lead JOIN input i USING (telefono)
  WHERE lead.repeat_of IS NULL OR lead.id IN (SELECT id FROM claimed_by_another)
),
email AS (
  INSERT INTO email_messages (lead_id, kind) SELECT id, '${GUIDE_LINK_EMAIL}' FROM claimed_by_another
  RETURNING id, lead_id
),
crm AS (
  INSERT INTO crm_deliveries (lead_id, event) SELECT id, 'lead.created' FROM lead
  RETURNING id, lead_id
),
conversion AS (${insertLeadConversionSql('lead', ':metaConversions::boolean')})
SELECT lead.telefono, lead.id AS lead_id, crm.id AS crm_delivery_id, lead.repeat_of, email.id AS email_message_id,
  conversion.id AS conversion_upload_id
FROM lead JOIN crm ON crm.lead_id = lead.id LEFT JOIN email ON email.lead_id = lead.id
  LEFT JOIN conversion ON conversion.lead_id = lead.id
`,
);

/** Stores a batch of leads whose phones are distinct, and answers for each, in order. */
async function storeLeads(db: Knex, leads: NewLead[], offerStartsAt: Date | null, intake: IntakeRules): Promise<InsertLeadResult[]> {
  const column = <T>(value: (lead: NewLead) => T) => leads.map(value);
  const { rows } = await insertLeadsStatement(db, {
    telefono: column((lead) => lead.request.telefono),
    nome: column((lead) => lead.request.nome),
    cognome: column((lead) => lead.request.cognome),
    email: column((lead) => lead.request.email),
    ebookType: column((lead) => lead.request.ebookType),
    source: column((lead) => lead.request.source),
    attribution: column((lead) => JSON.stringify(attributionOf(lead.request))),
    marketingConsent: column((lead) => lead.request.marketingConsent),
    ipAddress: column((lead) => lead.ipAddress),
    userAgent: column((lead) => lead.userAgent),
    consentVersion: column((lead) => lead.consentVersion),
    country: column((lead) => lead.request.country),
    landingPath: column((lead) => lead.request.landingPath ?? null),
    privacyConsentHash: column((lead) => lead.privacyConsentHash),
    marketingConsentVersion: column((lead) => lead.marketingConsentVersion),
    marketingConsentHash: column((lead) => lead.marketingConsentHash),
    downloadTokenTtlDays: column((lead) => lead.downloadTokenTtlDays),
    heroVariant: column((lead) => lead.request.heroVariant),
    placeKey: column((lead) => lead.placeKey),
    cookieConsentSessionId: column((lead) => lead.request.cookieConsentSessionId),
    smsTrusted: column((lead) => lead.smsBudget.trusted),
    budgetAddress: column((lead) => lead.smsBudget.address),
    offerStartsAt: offerStartsAt,
    metaConversions: intake.metaConversions,
  });
  const byPhone = new Map(rows.map((row) => [row.telefono, row]));
  return leads.map(({ request }) => {
    const row = byPhone.get(request.telefono);
    if (!row) throw new Error('a lead of the batch was not stored');
    return {
      leadId: row.lead_id,
      crmDeliveryId: row.crm_delivery_id,
      repeatOf: row.repeat_of,
      emailMessageId: row.email_message_id,
      conversionUploadId: row.conversion_upload_id,
    };
  });
}

/**
 * Inserts a batch of leads whose phones are distinct and answers for each, in order: its
 * result, or null when the offer had no place left for it (nothing of it is stored).
 *
 * Without a cap this is the one statement above. With one (decision 047), the batch first
 * locks the offer row, in a transaction, so batches that take places go one at a time in
 * every API process; it then counts the places taken and admits the leads whose phone
 * holds a place and, in order, as many others as places remain. With every place taken
 * none is admitted: the offer has ended. The insert runs in the same transaction, so no
 * other batch can count before these places are there.
 */
export async function insertLeads(
  db: Knex,
  leads: NewLead[],
  places: PlaceRules,
  intake: IntakeRules = { metaConversions: false },
): Promise<(InsertLeadResult | null)[]> {
  const { placesTotal, startsAt } = places;
  if (placesTotal === null) return storeLeads(db, leads, startsAt, intake);
  return db.transaction(async (trx) => {
    const { taken, held } = await lockOfferAndReadPlaces(trx, startsAt, leads.map((lead) => lead.placeKey));
    let free = placesTotal - taken;
    const admitted = leads.map((lead) => {
      if (taken >= placesTotal) return false;
      if (held.has(lead.placeKey.toString('hex'))) return true;
      if (free === 0) return false;
      free -= 1;
      return true;
    });
    const toStore = leads.filter((_, index) => admitted[index]);
    const stored = toStore.length > 0 ? await storeLeads(trx, toStore, startsAt, intake) : [];
    let next = 0;
    return admitted.map((ok) => (ok ? stored[next++]! : null));
  });
}
