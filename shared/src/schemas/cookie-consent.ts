import { z } from 'zod';
import type { CookieFlags } from '../cookie-consent-rules';
import { sessionIdSchema } from './session-id';

export { COOKIE_CONSENT_VALIDITY_DAYS, DEFAULT_COOKIE_FLAGS, type CookieFlags } from '../cookie-consent-rules';

/** Session id as the client keeps it: the spec's random id, 21+ URL-safe characters. */
export const consentSessionIdSchema = sessionIdSchema;

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
