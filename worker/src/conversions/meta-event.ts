import { createHash } from 'node:crypto';
import type { ConversionEvent } from '@guida/shared/jobs/conversions';

/**
 * One server event of the Meta Conversions API, as Meta documents it (Server Event and
 * Customer Information Parameters; decision 061). What leaves is the event, the hashed
 * email and phone, the click id Meta gave the ad's visitor, and the browser's user agent:
 * nothing else of the lead.
 */

/** The event names: Meta's standard `Lead`, and a custom event once the lead is verified (decision 061). */
export const META_EVENT_NAMES: Record<ConversionEvent, string> = { lead: 'Lead', verified_lead: 'LeadVerified' };

/** Meta refuses events whose event_time is more than 7 days ago. */
export const META_MAX_EVENT_AGE_MS = 7 * 24 * 3600 * 1000;

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** Meta's `em`: trimmed and lowercased, then hashed. */
export const normaliseEmailForMeta = (email: string) => email.trim().toLowerCase();

/**
 * Meta's `ph`: digits only, with the country code and without leading zeros (no '+', no
 * international '00'). The leads' numbers are E.164 already (+39…, +41…).
 */
export const normalisePhoneForMeta = (phone: string) => phone.replace(/\D/g, '').replace(/^0+/, '');

/** `fb.<subdomain index>.<creation time in ms>.<fbclid>`; subdomain index 1: the site's own domain. */
export const metaFbc = (fbclid: string, clickTimeMs: number) => `fb.1.${clickTimeMs}.${fbclid}`;

/** What the event reads of the lead. */
export interface MetaEventLead {
  id: number;
  email: string;
  telefono: string;
  created_at: Date;
  landing_path: string | null;
  user_agent: string | null;
  /** The last touch's click id, and the visit's first landing's. */
  fbclid: string | null;
  first_fbclid: string | null;
}

export interface MetaServerEvent {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: 'website';
  event_source_url: string;
  user_data: {
    em: [string];
    ph: [string];
    fbc?: string;
    client_user_agent?: string;
  };
}

/**
 * The event of one upload: `occurredAt` is when it happened (the lead's creation, or its
 * verification), the event id the upload's. The click id is the last touch's, else the
 * first landing's; its creation time is the lead's creation, the first moment the product
 * stored it (the visit's landing time is not kept). No IP: the product keeps only a
 * truncated one, which Meta must not get as if it were real.
 */
export function metaServerEvent(
  upload: { event: ConversionEvent; event_id: string },
  lead: MetaEventLead,
  occurredAt: Date,
  publicBaseUrl: string,
): MetaServerEvent {
  const fbclid = lead.fbclid ?? lead.first_fbclid;
  return {
    event_name: META_EVENT_NAMES[upload.event],
    event_time: Math.floor(occurredAt.getTime() / 1000),
    event_id: upload.event_id,
    action_source: 'website',
    event_source_url: `${publicBaseUrl}${lead.landing_path ?? '/'}`,
    user_data: {
      em: [sha256Hex(normaliseEmailForMeta(lead.email))],
      ph: [sha256Hex(normalisePhoneForMeta(lead.telefono))],
      ...(fbclid ? { fbc: metaFbc(fbclid, lead.created_at.getTime()) } : {}),
      ...(lead.user_agent ? { client_user_agent: lead.user_agent } : {}),
    },
  };
}
