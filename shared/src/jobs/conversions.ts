import { z } from 'zod';
import { defineJob } from './definition';

/**
 * Conversions sent back to the ad platforms (decision 061): the platforms and the two
 * events, as conversion_uploads stores them. Meta's events are posted by the worker
 * (this queue); Google Ads fetches its own (the scheduled offline conversion import).
 */
export const CONVERSION_PLATFORMS = ['meta', 'google_ads'] as const;
export type ConversionPlatform = (typeof CONVERSION_PLATFORMS)[number];

/** A lead stored; a lead verified (its SMS delivered or its guide downloaded, decision 059). */
export const CONVERSION_EVENTS = ['lead', 'verified_lead'] as const;
export type ConversionEvent = (typeof CONVERSION_EVENTS)[number];

/** Posts one conversion_uploads row to the Meta Conversions API. */
export const sendConversionJob = defineJob({
  queue: 'conversions',
  name: 'send-conversion',
  schema: z.object({ uploadId: z.number().int().positive() }),
  jobId: ({ uploadId }) => `conversion-${uploadId}`,
  // With a 60 s base the last retry comes about 8.5 h after the first failure, well
  // inside the 7 days Meta accepts an event for.
  attempts: 10,
});

/**
 * The conversions queue's own sweep, on a job scheduler (one run per interval however
 * many workers run): creates the verified-lead uploads, and enqueues the uploads still to
 * send whose job was lost.
 */
export const sweepConversionsJob = { name: 'sweep-conversions' } as const;
