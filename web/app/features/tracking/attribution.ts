import {
  emptyTouch,
  isTouch,
  isTouchValue,
  TOUCH_FIELDS,
  touchOfLanding,
  type Touch,
} from '@guida/shared/attribution-rules';

/**
 * Where this visit came from: its first landing and its latest landing that carried a
 * campaign, a click id or another site as referrer. Kept for the visit in sessionStorage
 * (this tab only, gone when it closes): no cookie, nothing another site can read.
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

/**
 * Records this page load as a landing of the visit, once: the first landing becomes the
 * first touch; any that says where it came from becomes the last touch. Runs at hydration
 * (root), or earlier when a page's own effect asks first (children's effects run before
 * the root's); navigations inside the site keep no query string and no outside referrer.
 */
export function recordLanding(): VisitAttribution {
  if (current) return current;
  const landing = touchOfLanding(window.location.search, document.referrer || null, window.location.host);
  const stored = readStored();
  current = stored
    ? { first: stored.first, last: isTouch(landing) ? landing : stored.last }
    : { first: landing, last: landing };
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Storage refused (private mode, quota): the attribution lives for this page only.
  }
  return current;
}

/** The visit's attribution, this page load included. */
export const visitAttribution = (): VisitAttribution => recordLanding();

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
