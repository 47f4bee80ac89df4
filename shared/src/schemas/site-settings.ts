import { z } from 'zod';

/** GET /api/site-settings: what the browser needs from the runtime configuration. */
export const siteSettingsSchema = z.object({
  /** Set only when the operator configured Google Analytics. */
  gaMeasurementId: z.string().nullable(),
  /** The real end of the current offer (ISO), or null: no countdown then. */
  offerEndsAt: z.string().nullable(),
  /**
   * The offer has ended (its deadline passed or its places are all taken, decision 047): the
   * pages show so in place of the guide form, and no countdown or places. As of the answer,
   * which browsers may keep up to a minute.
   */
  offerEnded: z.boolean(),
  /** Why it ended, null while it runs. */
  offerEndReason: z.enum(['deadline', 'places']).nullable(),
  /** The sender the SMS shows (TWILIO_FROM), null when the provider picks it. */
  smsSender: z.string().nullable(),
  /** Days the personal guide link stays valid (GUIDE_LINK_TTL_DAYS). */
  guideLinkDays: z.number().int().positive(),
  /** Minutes a delayed SMS waits before its link goes by email too (SMS_HELD_EMAIL_AFTER_MINUTES). */
  smsHeldEmailAfterMinutes: z.number().int().positive(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
