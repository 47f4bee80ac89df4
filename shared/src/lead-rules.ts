/** Business rules about a lead that web, api and worker must agree on. */

export const EBOOK_TYPES = ['general', 'financial-education', 'investment-education'] as const;
export type EbookType = (typeof EBOOK_TYPES)[number];

/** Name of the hidden form field that only bots fill in. */
export const HONEYPOT_FIELD = 'website';

export const DEFAULT_EBOOK_TYPE: EbookType = 'general';
export const DEFAULT_SOURCE = 'direct';
/**
 * utm_source of a lead whose visit had none (spec section 3: "from query utm_source, default
 * direct"), for both touches. The admin counts it, like NULL, as DIRECT_SOURCE
 * (server/campaign-source-sql.ts).
 */
export const DEFAULT_UTM_SOURCE = 'direct';

/** Version of the privacy consent text shown next to the form's required checkbox. */
export const PRIVACY_CONSENT_VERSION = '1.0';

/**
 * Version of the marketing consent text shown next to the form's optional checkbox: a
 * purpose of its own, so its text changes without touching the privacy consent's version.
 */
export const MARKETING_CONSENT_VERSION = '1.0';

export const THANK_YOU_PATHS = {
  italy: '/grazie-italia',
  switzerland: '/grazie-svizzera',
} as const;

/** The older trading page: its visitors always go to /grazie-italia (spec section 4). */
export const OLDER_PAGE_PATH = '/trading-old';

/**
 * The spec's redirect rule: a Swiss number (+41) or a Swiss page (its path contains
 * "svizzera" or "swiss") goes to the Swiss thank-you page; the older page always to the
 * Italian one. When the number is not of the page's country (+39 on a Swiss page, +41 on
 * the older page), `?prefisso=` says which it is: the page's copy about the phone follows
 * the visitor's number, not the page (decision 031).
 */
export function thankYouPathFor(telefono: string, landingPath: string | null | undefined) {
  const swissNumber = telefono.replace(/\s/g, '').startsWith('+41');
  const path =
    landingPath !== OLDER_PAGE_PATH && (swissNumber || isSwissPath(landingPath))
      ? THANK_YOU_PATHS.switzerland
      : THANK_YOU_PATHS.italy;
  const pageIsSwiss = path === THANK_YOU_PATHS.switzerland;
  return swissNumber === pageIsSwiss ? path : `${path}?${THANK_YOU_PREFIX_PARAM}=${swissNumber ? '41' : '39'}`;
}

/** The query parameter naming the visitor's country code on a thank-you page of the other country. */
export const THANK_YOU_PREFIX_PARAM = 'prefisso';

/** Whether a landing path belongs to the Swiss variants of the site. */
export function isSwissPath(landingPath: string | null | undefined) {
  const path = (landingPath ?? '').toLowerCase();
  return path.includes('svizzera') || path.includes('swiss');
}

/** The personal download link sent by SMS (and by email when the SMS fails). */
export const guideLinkUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/g/${token}`;

/** Whole days a download link is still valid, at least 1 (what the SMS tells the visitor). */
export function daysLeft(expiresAt: Date, now = Date.now()) {
  return Math.max(1, Math.round((expiresAt.getTime() - now) / (24 * 3600 * 1000)));
}
