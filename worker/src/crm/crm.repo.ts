import type { Knex } from 'knex';

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
  marketing_consent_version: string | null;
  consent_version: string;
  consent_timestamp: Date | null;
  country: string | null;
  landing_path: string | null;
  created_at: Date;
  repeat_of: number | null;
}

export function loadLead(db: Knex, leadId: number) {
  return db('ebook_requests').where({ id: leadId }).first<LeadRow | undefined>();
}
