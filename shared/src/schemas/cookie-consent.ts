import { z } from 'zod';
import type { CookieFlags } from '../cookie-consent-rules';

export { COOKIE_CONSENT_VALIDITY_DAYS, DEFAULT_COOKIE_FLAGS, type CookieFlags } from '../cookie-consent-rules';

/** Session id as the client keeps it: the 21-character URL-safe random id (or similar). */
export const consentSessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,255}$/);

export const cookieFlagsSchema = z.object({
  /** Essential cookies cannot be refused. */
  essential: z.literal(true).default(true),
  analytics: z.boolean(),
  marketing: z.boolean(),
  preferences: z.boolean(),
}) satisfies z.ZodType<CookieFlags, unknown>;

/** POST /api/cookie-consent */
export const cookieConsentRequestSchema = cookieFlagsSchema.extend({ sessionId: consentSessionIdSchema });
export type CookieConsentRequest = z.input<typeof cookieConsentRequestSchema>;
