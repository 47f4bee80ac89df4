import { z } from 'zod';

/** GET /api/site-settings: what the browser needs from the runtime configuration. */
export const siteSettingsSchema = z.object({
  /** Set only when the operator configured Google Analytics. */
  gaMeasurementId: z.string().nullable(),
  /** The real end of the current offer (ISO), or null: no countdown then. */
  offerEndsAt: z.string().nullable(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
