import type { Knex } from 'knex';
import type { AdConsentFacts } from '@guida/shared/server/ad-conversion-consent';
import type { MetaEventLead } from './meta-event';

/** What sending a lead's conversion reads of it: the event's fields, the consent, the verification. */
export interface ConversionLead extends MetaEventLead, AdConsentFacts {
  reachable_at: Date | null;
  engaged_at: Date | null;
}

export const loadConversionLead = (db: Knex, leadId: number) =>
  db('ebook_requests')
    .where({ id: leadId })
    .first<ConversionLead | undefined>(
      'id',
      'email',
      'telefono',
      'created_at',
      'landing_path',
      'user_agent',
      'fbclid',
      'first_fbclid',
      'ad_user_data',
      'marketing_consent_withdrawn_at',
      'reachable_at',
      'engaged_at',
    );

/** When the lead became verified: the earlier of its SMS delivered and its first download. */
export function verifiedAt(lead: Pick<ConversionLead, 'reachable_at' | 'engaged_at'>): Date | null {
  const times = [lead.reachable_at, lead.engaged_at].filter((time): time is Date => time !== null);
  return times.length === 0 ? null : new Date(Math.min(...times.map((time) => time.getTime())));
}
