import { z } from 'zod';
import { analyticsMessages } from '../messages';
import { SESSION_ID_PATTERN } from '../session-id';

/** The spec's random session id (cookie consent, analytics): 21+ URL-safe characters. */
export const sessionIdSchema = z
  .string({ error: analyticsMessages.sessionId })
  .regex(SESSION_ID_PATTERN, { error: analyticsMessages.sessionId });
