/**
 * Data-protection requests: the facts web, api and worker share, without zod (the /gdpr
 * page renders its form before any validation code loads).
 */

/** The rights a visitor can exercise with the /gdpr form (spec section 5). */
export const GDPR_REQUEST_TYPES = ['access', 'deletion', 'portability', 'rectification'] as const;
export type GdprRequestType = (typeof GDPR_REQUEST_TYPES)[number];

export const GDPR_REQUEST_TYPE_LABELS: Record<GdprRequestType, string> = {
  access: 'Accesso ai dati',
  deletion: 'Cancellazione dei dati',
  portability: 'Portabilità dei dati',
  rectification: 'Rettifica dei dati',
};

/**
 * pending: waits for the emailed confirmation; confirmed: actionable; processing: an admin
 * accepted it and its worker job runs; completed or rejected: done.
 */
export const GDPR_REQUEST_STATUSES = ['pending', 'confirmed', 'processing', 'completed', 'rejected'] as const;
export type GdprRequestStatus = (typeof GDPR_REQUEST_STATUSES)[number];

/** A request whose emailed confirmation link was not followed yet. */
export const GDPR_REQUEST_UNCONFIRMED: GdprRequestStatus = 'pending';

export const GDPR_REQUEST_STATUS_LABELS: Record<GdprRequestStatus, string> = {
  pending: 'In attesa di conferma',
  confirmed: 'Confermata, da gestire',
  processing: 'In lavorazione',
  completed: 'Completata',
  rejected: 'Respinta',
};

export const GDPR_PROCESS_ACTIONS = ['complete', 'reject'] as const;
export type GdprProcessAction = (typeof GDPR_PROCESS_ACTIONS)[number];

/** What the visitor may write about a rectification, and an admin's notes. */
export const GDPR_TEXT_MAX_LENGTH = 2000;

/** The personal links: confirming a request, downloading an export. */
export const gdprConfirmUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/gdpr/conferma/${token}`;
export const gdprExportUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/gdpr/export/${token}`;

/** Emails are compared and hashed in this form (the lead form stores them so too). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, for limits only (stored hashes keep normaliseEmail):
 * lower case, without a `+tag` in the local part, and for Gmail without dots and with
 * googlemail.com as gmail.com, so `a.b+1@gmail.com` counts as `ab@gmail.com`. Other
 * providers' aliasing rules are not guessed: a dot elsewhere may be a different person.
 */
export function mailboxOf(email: string): string {
  const address = normaliseEmail(email);
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
