import type { Knex } from 'knex';
import type { AdConsentState } from '@guida/shared/cookie-consent-rules';

export interface LeadRow {
  id: number;
  nome: string;
  cognome: string;
  email: string;
  telefono: string;
  ebook_type: string;
  source: string;
  /** The attribution columns (ATTRIBUTION_COLUMNS), read by touchOfRow. */
  [attribution: string]: unknown;
  gdpr_consent: boolean;
  marketing_consent: boolean;
  marketing_consent_version: string | null;
  marketing_consent_withdrawn_at: Date | null;
  consent_version: string;
  consent_timestamp: Date | null;
  country: string | null;
  landing_path: string | null;
  created_at: Date;
  repeat_of: number | null;
  hero_variant: string | null;
  ad_user_data: AdConsentState;
  ad_personalization: AdConsentState;
  /** Verification (decision 059): the first delivered SMS, the first real guide download. */
  reachable_at: Date | null;
  engaged_at: Date | null;
}

export function loadLead(db: Knex, leadId: number) {
  return db('ebook_requests').where({ id: leadId }).first<LeadRow | undefined>();
}
