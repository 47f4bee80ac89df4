import { z } from 'zod';

/** Longer than any token the API issues; a longer value is taken as none. */
const MAX_TOKEN_CHARS = 1000;

/**
 * The visit's signed session (decision 051), sent back with analytics events and the lead
 * as the API issued it. Never refused: a missing, mangled or forged token only means the
 * request counts in no experiment (events) or by the variant its request is served (a lead).
 */
export const visitSessionField = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' && value.length > 0 && value.length <= MAX_TOKEN_CHARS ? value : null));

/** GET /api/analytics/session: a new session for this browser tab. */
export interface VisitSessionAnswer {
  /** The session id the tab's events carry. */
  sessionId: string;
  /** What the tab sends back as `visitSession`. */
  token: string;
  /** Seconds until the API stops taking the token (the end of the UTC day): then ask again. */
  expiresIn: number;
}
