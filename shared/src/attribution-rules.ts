/**
 * Campaign attribution of a visit: the UTM parameters, the ad platforms' click ids and the
 * referring site's host, as the landing URL carries them. Used by the browser (no zod here:
 * it runs on the public pages' first load), by the API's schema (schemas/attribution.ts)
 * and by every place that stores or shows a lead's campaign. A value that breaks a rule is
 * dropped by the browser and refused by the API: these values are data, never text we send.
 */

/** Every field of one touch, in the order lists, the CSV and the CRM payload use. */
export const TOUCH_FIELDS = [
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'gclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'ttclid',
  'referrerHost',
] as const;
export type TouchField = (typeof TOUCH_FIELDS)[number];
/** One touch: where a landing of the visit came from; null where it says nothing. */
export type Touch = Record<TouchField, string | null>;

export const UTM_FIELDS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const;
/** Google (gclid, and gbraid / wbraid on iOS), Meta, Microsoft, TikTok. */
export const CLICK_ID_FIELDS = ['gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'ttclid'] as const;

/** The column (and query parameter) of each field: last touch as named, first touch prefixed. */
export const TOUCH_COLUMNS: Record<TouchField, string> = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmTerm: 'utm_term',
  utmContent: 'utm_content',
  gclid: 'gclid',
  gbraid: 'gbraid',
  wbraid: 'wbraid',
  fbclid: 'fbclid',
  msclkid: 'msclkid',
  ttclid: 'ttclid',
  referrerHost: 'referrer_host',
};
export const FIRST_TOUCH_PREFIX = 'first_';

export const CAMPAIGN_VALUE_MAX_LENGTH = 150;
export const CLICK_ID_MAX_LENGTH = 256;
export const HOST_MAX_LENGTH = 253;

/**
 * Letters and digits of any script, dashes, spaces and the punctuation campaign names use; no
 * angle brackets, quotes other than the apostrophe, backslashes, braces or control
 * characters.
 */
const CAMPAIGN_VALUE = /^[\p{L}\p{M}\p{N}\p{Pd} ._~+:/|,()@&=!'*#%[\]]+$/u;
/** The click ids are URL-safe tokens (base64 or base64url, with dots in TikTok's). */
const CLICK_ID = /^[A-Za-z0-9._~=+/-]+$/;
/** A DNS name in lower case (internationalised names in their xn-- form). */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

export const isCampaignValue = (value: string) =>
  value.length <= CAMPAIGN_VALUE_MAX_LENGTH && CAMPAIGN_VALUE.test(value);
export const isClickId = (value: string) => value.length <= CLICK_ID_MAX_LENGTH && CLICK_ID.test(value);
export const isHostName = (value: string) => value.length <= HOST_MAX_LENGTH && HOST_NAME.test(value);

/** The rule of each field. */
export const isTouchValue = (field: TouchField, value: string) =>
  field === 'referrerHost'
    ? isHostName(value)
    : (CLICK_ID_FIELDS as readonly string[]).includes(field)
      ? isClickId(value)
      : isCampaignValue(value);

export const emptyTouch = (): Touch =>
  Object.fromEntries(TOUCH_FIELDS.map((field) => [field, null])) as Touch;

/** The touch fields of a record that holds them among others (a lead request). */
export const pickTouch = (record: Partial<Record<TouchField, string | null>>): Touch =>
  Object.fromEntries(TOUCH_FIELDS.map((field) => [field, record[field] ?? null])) as Touch;

/**
 * The touch without its click ids: what may be kept of it without a marketing cookie
 * consent (decision 049). The same object when it has none.
 */
export function withoutClickIds(touch: Touch): Touch {
  if (!CLICK_ID_FIELDS.some((field) => touch[field] !== null)) return touch;
  const kept = { ...touch };
  for (const field of CLICK_ID_FIELDS) kept[field] = null;
  return kept;
}

/** Whether the touch says anything (a campaign, a click id or another site). */
export const isTouch = (touch: Touch) => TOUCH_FIELDS.some((field) => touch[field] !== null);

/** A campaign value as the browser keeps it: spaces collapsed, cut to the limit, else null. */
function campaignValue(raw: string | null): string | null {
  if (raw === null) return null;
  const value = raw.replace(/\s+/g, ' ').trim().slice(0, CAMPAIGN_VALUE_MAX_LENGTH).trim();
  return value && isCampaignValue(value) ? value : null;
}

/** A click id is kept whole or not at all: a cut one would match nothing at the platform. */
const clickId = (raw: string | null) => (raw !== null && isClickId(raw.trim()) ? raw.trim() : null);

const withoutWww = (host: string) => host.replace(/^www\./, '');

/**
 * The referring site's host name (no scheme, port, path or query), or null for no
 * referrer, this site itself (`ownHost`, with or without www.) or anything that is not
 * a host name.
 */
export function referrerHostOf(referrer: string | null | undefined, ownHost: string): string | null {
  if (!referrer) return null;
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return null;
  }
  const own = ownHost.toLowerCase().replace(/:\d+$/, '');
  if (!isHostName(host) || withoutWww(host) === withoutWww(own)) return null;
  return host;
}

/** The touch a landing URL's query string and referrer make; invalid values are dropped. */
export function touchOfLanding(search: string, referrer: string | null, ownHost: string): Touch {
  const query = new URLSearchParams(search);
  const touch = emptyTouch();
  for (const field of UTM_FIELDS) touch[field] = campaignValue(query.get(TOUCH_COLUMNS[field]));
  for (const field of CLICK_ID_FIELDS) touch[field] = clickId(query.get(TOUCH_COLUMNS[field]));
  touch.referrerHost = referrerHostOf(referrer, ownHost);
  return touch;
}

/** A touch as `{ column: value }`, for a row of ebook_requests (`prefix` for the first touch). */
export function touchColumns(touch: Touch, prefix = ''): Record<string, string | null> {
  return Object.fromEntries(TOUCH_FIELDS.map((field) => [`${prefix}${TOUCH_COLUMNS[field]}`, touch[field]]));
}

/** Every attribution column of ebook_requests: the last touch's, then the first touch's. */
export const ATTRIBUTION_COLUMNS = [
  ...TOUCH_FIELDS.map((field) => TOUCH_COLUMNS[field]),
  ...TOUCH_FIELDS.map((field) => `${FIRST_TOUCH_PREFIX}${TOUCH_COLUMNS[field]}`),
];

/** A touch read back from a row of ebook_requests. */
export function touchOfRow(row: Record<string, unknown>, prefix = ''): Touch {
  return Object.fromEntries(
    TOUCH_FIELDS.map((field) => {
      const value = row[`${prefix}${TOUCH_COLUMNS[field]}`];
      return [field, typeof value === 'string' ? value : null];
    }),
  ) as Touch;
}
