import {
  emptyTouch,
  isTouch,
  isTouchValue,
  TOUCH_FIELDS,
  touchOfLanding,
  withoutClickIds,
  type Touch,
} from '@guida/shared/attribution-rules';

/**
 * Where this visit came from: its first landing and its latest landing that carried a
 * campaign, a click id or another site as referrer. Kept for the visit in sessionStorage
 * (this tab only, gone when it closes): no cookie, nothing another site can read.
 *
 * The ad click ids only with the marketing cookie consent (decision 049): until the choice
 * is known, this page load's click ids stay in memory and nothing of them is written; then
 * they are written with an accepted marketing choice, and dropped (those stored earlier in
 * the visit too) without one.
 */
const STORAGE_KEY = 'guida-attribution';

export interface VisitAttribution {
  first: Touch;
  last: Touch;
}

/** A stored touch with every value checked again: sessionStorage is writable by any script of the page. */
function checkedTouch(value: unknown): Touch {
  const touch = emptyTouch();
  if (typeof value !== 'object' || value === null) return touch;
  for (const field of TOUCH_FIELDS) {
    const text = (value as Record<string, unknown>)[field];
    if (typeof text === 'string' && isTouchValue(field, text)) touch[field] = text;
  }
  return touch;
}

function readStored(): VisitAttribution | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { first?: unknown; last?: unknown };
    return { first: checkedTouch(parsed.first), last: checkedTouch(parsed.last) };
  } catch {
    return null;
  }
}

let current: VisitAttribution | null = null;
/** This page load's touch, whose click ids wait in memory for the cookie choice. */
let landing: Touch | null = null;

/**
 * Writes the visit to sessionStorage with its click ids when `marketing` is true, without
 * them when false, and with those of earlier landings only (already kept by choice) when
 * the choice is not known yet (undefined).
 */
function persist(marketing?: boolean) {
  const kept = (touch: Touch) => (marketing || (marketing === undefined && touch !== landing) ? touch : withoutClickIds(touch));
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ first: kept(current!.first), last: kept(current!.last) }));
  } catch {
    // Storage refused (private mode, quota): the attribution lives for this page only.
  }
}

/**
 * Records this page load as a landing of the visit, once: the first landing becomes the
 * first touch; any that says where it came from becomes the last touch. Runs at hydration
 * (root), or earlier when a page's own effect asks first (children's effects run before
 * the root's); navigations inside the site keep no query string and no outside referrer.
 */
export function recordLanding(): VisitAttribution {
  if (current) return current;
  landing = touchOfLanding(window.location.search, document.referrer || null, window.location.host);
  const stored = readStored();
  current = stored
    ? { first: stored.first, last: isTouch(landing) ? landing : stored.last }
    : { first: landing, last: landing };
  persist();
  return current;
}

/**
 * The visitor's cookie choice, once known: whether it accepts marketing, or null while the
 * banner waits for one (the click ids stay in memory; the visitor may still accept them).
 */
export function applyCookieChoice(marketing: boolean | null) {
  if (!current) return;
  if (marketing === false) current = { first: withoutClickIds(current.first), last: withoutClickIds(current.last) };
  persist(marketing === true);
}

/** The visit's attribution, this page load included; its click ids only with `clickIds`. */
export function visitAttribution(clickIds = false): VisitAttribution {
  const { first, last } = recordLanding();
  return clickIds ? { first, last } : { first: withoutClickIds(first), last: withoutClickIds(last) };
}

/** The campaign of the visit's last touch as analytics events carry it (snake_case, as stored). */
export function campaignMetadata() {
  const { last } = visitAttribution();
  return {
    utm_source: last.utmSource,
    utm_medium: last.utmMedium,
    utm_campaign: last.utmCampaign,
    utm_term: last.utmTerm,
    utm_content: last.utmContent,
  };
}
