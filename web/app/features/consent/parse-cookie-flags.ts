import { cookieFlagsSchema } from '@guida/shared/schemas/cookie-consent';
import '../../lib/zod-in-browser';

/** The server's answer checked with the shared schema (loaded on demand: it brings zod). */
export const parseCookieFlags = (answer: unknown) => cookieFlagsSchema.parse(answer);
