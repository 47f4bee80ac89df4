import { z } from 'zod';
import {
  ANALYTICS_TEXT_LIMITS as limits,
  DEVICES,
  FORM_ACTIONS,
  FUNNEL_STEPS,
  MAX_EVENTS_PER_BATCH,
} from '../analytics-rules';
import { storedPath, storedReferrer } from '../analytics-urls';
import { analyticsMessages as m } from '../messages';
import { isSitePage } from '../page-paths';
import { safeText } from '../text-rules';
import { serverAssignedVariant } from './hero-variant';
import { sessionIdSchema } from './session-id';
import { visitSessionField } from './visit-session';

export { DEVICES, FORM_ACTIONS, FUNNEL_STEPS, MAX_EVENTS_PER_BATCH } from '../analytics-rules';

/**
 * First-party analytics events (spec section 3) as the browser sends them. Each carries a
 * client event id, so a batch sent twice is stored once. Texts are capped to what the
 * site can produce (ANALYTICS_TEXT_LIMITS); paths and referrers lose their query string
 * and fragment before they are queued.
 */

const text = (max: number) => safeText(m.invalidValue).max(max, { error: m.tooLong });
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((value) => value || null);
const integer = (min: number, max: number) =>
  z
    .number({ error: m.invalidValue })
    .int({ error: m.invalidValue })
    .min(min, { error: m.invalidValue })
    .max(max, { error: m.invalidValue });
const seconds = integer(0, 86_400);
const pagePath = text(limits.path).startsWith('/', { error: m.path }).transform(storedPath);
const optionalPagePath = pagePath.nullish().transform((value) => value || null);
const referrer = optionalText(limits.referrer).transform(storedReferrer);
/**
 * A funnel step's page is one of the site's landing pages; any other is not kept (it
 * would be stored twice: in the metadata and as the funnel's landing_path column).
 */
const landingPath = pagePath.transform((path) => (isSitePage(path) ? path : undefined));

const common = {
  /** Random id made by the browser; optional on the single-event endpoints. */
  eventId: z.uuid({ error: m.invalidValue }).optional(),
  /**
   * The tab's session: its signed visit session's (the API puts that one in whatever this
   * says), or without one an id the browser made, which counts in no experiment.
   */
  sessionId: sessionIdSchema,
  /** When it happened in the browser; the server keeps its own time if this is implausible. */
  occurredAt: z.iso.datetime({ offset: true, error: m.invalidValue }).optional(),
};

export const pageViewSchema = z.object({
  ...common,
  path: pagePath,
  referrer,
  userAgent: optionalText(limits.userAgent),
  language: optionalText(limits.language),
  screenResolution: optionalText(limits.screenResolution),
  device: z.enum(DEVICES, { error: m.invalidValue }).nullish(),
  browser: optionalText(limits.browser),
  os: optionalText(limits.os),
  /** The hero variant shown (decision 041): the one of the visit's signed session, set by the API. */
  heroVariant: serverAssignedVariant,
});

export const conversionSchema = z.object({
  ...common,
  step: z.enum(FUNNEL_STEPS, { error: m.invalidValue }),
  metadata: z
    .object({
      path: landingPath.optional(),
      referrer,
      utm_source: optionalText(limits.utm),
      utm_medium: optionalText(limits.utm),
      utm_campaign: optionalText(limits.utm),
      utm_term: optionalText(limits.utm),
      utm_content: optionalText(limits.utm),
      /** The hero variant the landing showed (decision 041): the one of the visit's signed session, set by the API. */
      hero_variant: serverAssignedVariant,
    })
    .optional(),
});

export const sectionViewSchema = z.object({
  ...common,
  section: text(limits.section).min(1, { error: m.invalidValue }),
  timeSpent: seconds,
  path: optionalPagePath,
});

export const formInteractionSchema = z.object({
  ...common,
  action: z.enum(FORM_ACTIONS, { error: m.invalidValue }),
  fieldName: optionalText(limits.fieldName),
  timeOnPage: seconds.nullish(),
  errorMessage: optionalText(limits.errorMessage),
  scrollDepth: integer(0, 100).nullish(),
  path: optionalPagePath,
});

export const ANALYTICS_EVENT_TYPES = ['page-view', 'conversion', 'section-view', 'form-interaction'] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

/**
 * The visit's signed session (GET /api/analytics/session, decision 051), beside the events
 * of a request: their session id and hero variants are then the ones it holds.
 */
const signedVisit = { visitSession: visitSessionField };

/** The bodies of the single-event endpoints. */
export const analyticsEventSchemas = {
  'page-view': pageViewSchema.extend(signedVisit),
  conversion: conversionSchema.extend(signedVisit),
  'section-view': sectionViewSchema.extend(signedVisit),
  'form-interaction': formInteractionSchema.extend(signedVisit),
} as const;

export const analyticsEventSchema = z.discriminatedUnion(
  'type',
  [
    pageViewSchema.extend({ type: z.literal('page-view') }),
    conversionSchema.extend({ type: z.literal('conversion') }),
    sectionViewSchema.extend({ type: z.literal('section-view') }),
    formInteractionSchema.extend({ type: z.literal('form-interaction') }),
  ],
  { error: m.invalidValue },
);
export type AnalyticsEvent = z.output<typeof analyticsEventSchema>;
export type AnalyticsEventInput = z.input<typeof analyticsEventSchema>;

/** POST /api/analytics/batch */
export const analyticsBatchSchema = z.object(
  {
    events: z
      .array(analyticsEventSchema, { error: m.invalidValue })
      .min(1, { error: m.invalidValue })
      .max(MAX_EVENTS_PER_BATCH, { error: m.tooManyEvents }),
    ...signedVisit,
  },
  { error: m.invalidValue },
);

/** What the API hands to the worker through Redis: validated events plus request facts. */
export interface IngestedEvent {
  type: AnalyticsEventType;
  eventId: string;
  /** ISO time the event is stored with. */
  at: string;
  /** Truncated at the API. */
  ipAddress: string | null;
  data: Record<string, unknown>;
}

/** GET /api/live-stats */
export const liveStatsSchema = z.object({
  /** Clients online (the asking visitor included), and those on the page: 0 below the API's threshold. */
  visitorsOnline: z.number().int().min(0),
  readersOfPage: z.number().int().min(0),
  guideRequestsLast2h: z.number().int().min(0),
  downloadsLast2h: z.number().int().min(0),
  /** SMS of the last day; `delivered`: the phone reported it, else only handed to the provider. */
  recentDeliveries: z.array(z.object({ at: z.string(), country: z.enum(['IT', 'CH']), delivered: z.boolean() })),
  /** null when no free-places cap is configured. */
  placesRemaining: z.number().int().min(0).nullable(),
  placesTotal: z.number().int().min(0).nullable(),
});
export type LiveStats = z.infer<typeof liveStatsSchema>;
