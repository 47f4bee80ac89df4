import { FIRST_TOUCH_PREFIX, touchOfRow } from '@guida/shared/attribution-rules';
import type { CrmEvent } from '@guida/shared/jobs/crm';
import type { LeadSuppression } from '@guida/shared/server/marketing-suppression';
import type { LeadRow } from './crm.repo';

/**
 * The JSON the CRM receives for every event but lead.deleted (lead.created, lead.updated,
 * lead.consent_withdrawn, lead.sms_delivered, lead.guide_opened); see docs/crm-webhook.md. `suppression` is the lead's entry on the suppression list, if any.
 */
export function crmPayload(
  delivery: { id: number; event: CrmEvent; created_at: Date },
  lead: LeadRow,
  suppression: LeadSuppression | null,
) {
  return {
    id: delivery.id,
    event: delivery.event,
    occurredAt: delivery.created_at.toISOString(),
    lead: {
      id: lead.id,
      nome: lead.nome,
      cognome: lead.cognome,
      email: lead.email,
      telefono: lead.telefono,
      country: lead.country,
      ebookType: lead.ebook_type,
      source: lead.source,
      landingPath: lead.landing_path,
      // The visit's last touch (utmSource ... referrerHost), then its first landing's.
      ...touchOfRow(lead),
      firstTouch: touchOfRow(lead, FIRST_TOUCH_PREFIX),
      gdprConsent: lead.gdpr_consent,
      /** In force: given with the request and not withdrawn since. */
      marketingConsent: lead.marketing_consent && lead.marketing_consent_withdrawn_at === null,
      /** Version of the marketing text consented to; null when not given. */
      marketingConsentVersion: lead.marketing_consent_version,
      /** When the person refused marketing after this request (decision 048); null if not. */
      marketingConsentWithdrawnAt: lead.marketing_consent_withdrawn_at?.toISOString() ?? null,
      /** This email or phone is on the suppression list: it refused marketing, for this or another request. */
      marketingSuppressed: suppression !== null,
      /** The latest refusal of this email or phone; null when not suppressed. */
      marketingSuppressedAt: suppression?.suppressedAt.toISOString() ?? null,
      /** Version of the privacy text consented to. */
      consentVersion: lead.consent_version,
      consentTimestamp: lead.consent_timestamp?.toISOString() ?? null,
      createdAt: lead.created_at.toISOString(),
      /** The lead this one repeats within 24 h (no SMS of its own); null for a first request. */
      repeatOf: lead.repeat_of,
      /** The hero variant shown on a page under an A/B experiment (decision 041); null elsewhere. */
      heroVariant: lead.hero_variant,
      /**
       * Google Consent Mode v2's ad consent when the lead was sent (decision 049): 'granted'
       * only with a marketing cookie consent recorded for the visitor, else 'denied'.
       */
      adUserData: lead.ad_user_data,
      adPersonalization: lead.ad_personalization,
      /** When the provider first reported the lead's SMS delivered (lead.sms_delivered); null until then. */
      reachableAt: lead.reachable_at?.toISOString() ?? null,
      /** When the lead first downloaded its guide (lead.guide_opened); null until then. */
      engagedAt: lead.engaged_at?.toISOString() ?? null,
    },
  };
}

/**
 * lead.deleted: the lead was erased here (a deletion request or the retention period),
 * so only its id travels; the CRM should erase it too.
 */
export function crmDeletionPayload(delivery: { id: number; created_at: Date }, leadId: number) {
  return {
    id: delivery.id,
    event: 'lead.deleted' as const,
    occurredAt: delivery.created_at.toISOString(),
    lead: { id: leadId },
  };
}
