import { z } from 'zod';
import { DEVICES, FORM_ACTIONS, FUNNEL_STEPS, MAX_EVENTS_PER_BATCH } from '../analytics-rules';
import { validationMessages as m } from '../messages';
import { safeText } from '../text-rules';

export { DEVICES, FORM_ACTIONS, FUNNEL_STEPS, MAX_EVENTS_PER_BATCH } from '../analytics-rules';

/**
 * First-party analytics events (spec section 3) as the browser sends them. Each carries a
 * client event id, so a batch sent twice is stored once.
 */

const text = (max: number) => safeText(m.text).max(max);
const optionalText = (max: number) =>
  safeText(m.text)
    .max(max)
    .nullish()
    .transform((value) => value || null);
const seconds = z.number().int().min(0).max(86_400);

const common = {
  /** Random id made by the browser; optional on the single-event endpoints. */
  eventId: z.uuid().optional(),
  sessionId: safeText(m.text).min(8).max(255),
  /** When it happened in the browser; the server keeps its own time if this is implausible. */
  occurredAt: z.iso.datetime({ offset: true }).optional(),
};

export const pageViewSchema = z.object({
  ...common,
  path: text(2048),
  referrer: optionalText(2048),
  userAgent: optionalText(512),
  language: optionalText(35),
  screenResolution: optionalText(20),
  device: z.enum(DEVICES).nullish(),
  browser: optionalText(50),
  os: optionalText(50),
});

export const conversionSchema = z.object({
  ...common,
  step: z.enum(FUNNEL_STEPS),
  metadata: z
    .object({
      path: text(2048).optional(),
      referrer: optionalText(2048),
      utm_source: optionalText(200),
      utm_medium: optionalText(200),
      utm_campaign: optionalText(200),
    })
    .optional(),
});

export const sectionViewSchema = z.object({
  ...common,
  section: text(100).min(1),
  timeSpent: seconds,
  path: optionalText(2048),
});

export const formInteractionSchema = z.object({
  ...common,
  action: z.enum(FORM_ACTIONS),
  fieldName: optionalText(100),
  timeOnPage: seconds.nullish(),
  errorMessage: optionalText(500),
  scrollDepth: z.number().int().min(0).max(100).nullish(),
  path: optionalText(2048),
});

export const ANALYTICS_EVENT_TYPES = ['page-view', 'conversion', 'section-view', 'form-interaction'] as const;
export type AnalyticsEventType = (typeof ANALYTICS_EVENT_TYPES)[number];

export const analyticsEventSchemas = {
  'page-view': pageViewSchema,
  conversion: conversionSchema,
  'section-view': sectionViewSchema,
  'form-interaction': formInteractionSchema,
} as const;

export const analyticsEventSchema = z.discriminatedUnion('type', [
  pageViewSchema.extend({ type: z.literal('page-view') }),
  conversionSchema.extend({ type: z.literal('conversion') }),
  sectionViewSchema.extend({ type: z.literal('section-view') }),
  formInteractionSchema.extend({ type: z.literal('form-interaction') }),
]);
export type AnalyticsEvent = z.output<typeof analyticsEventSchema>;
export type AnalyticsEventInput = z.input<typeof analyticsEventSchema>;

/** POST /api/analytics/batch */
export const analyticsBatchSchema = z.object({
  events: z.array(analyticsEventSchema).min(1).max(MAX_EVENTS_PER_BATCH),
});

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
  visitorsOnline: z.number().int().min(0),
  readersOfPage: z.number().int().min(0),
  guideRequestsLast2h: z.number().int().min(0),
  downloadsLast2h: z.number().int().min(0),
  recentDeliveries: z.array(z.object({ at: z.string(), country: z.enum(['IT', 'CH']) })),
  /** null when no free-places cap is configured. */
  placesRemaining: z.number().int().min(0).nullable(),
  placesTotal: z.number().int().min(0).nullable(),
});
export type LiveStats = z.infer<typeof liveStatsSchema>;
