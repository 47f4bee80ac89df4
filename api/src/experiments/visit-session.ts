import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { experimentOfPath } from '@guida/shared/experiments';
import { isSessionId } from '@guida/shared/session-id';

/**
 * A visit's session as the API issues it (decision 051): a random session id, the variant
 * of each running experiment the server assigned the visit, and when it stops being
 * accepted. Signed, so that neither the session nor a variant can be made up or changed by
 * the browser; the analytics and the lead count what the token says, never what the
 * request names.
 */
export interface VisitSession {
  sessionId: string;
  /** Variant id by experiment id. */
  variants: Record<string, string>;
  expiresAt: Date;
}

/**
 * Events queued before the end of the token's day reach the API a little later (the batch
 * timer, a beacon on leaving): they still count.
 */
export const VISIT_SESSION_GRACE_MS = 15 * 60 * 1000;
/** Longer than any token the API issues (one experiment: about 170 characters). */
const MAX_TOKEN_CHARS = 1000;
/** The session id alphabet of the spec (URL-safe, as nanoid's). */
const ID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** A key of its own, derived from SESSION_SECRET: no other use of the secret can make a token. */
const signingKey = (secret: string) => createHmac('sha256', secret).update('visit-session-token').digest();
const signatureOf = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** 21 random characters of the URL-safe alphabet (126 bits). */
export function newSessionId(): string {
  let id = '';
  for (const byte of randomBytes(21)) id += ID_ALPHABET[byte & 63];
  return id;
}

/** The token of `session`: base64url(JSON payload) "." base64url(HMAC-SHA256). */
export function signVisitSession(secret: string, session: VisitSession): string {
  const payload = Buffer.from(
    JSON.stringify({ s: session.sessionId, v: session.variants, e: Math.floor(session.expiresAt.getTime() / 1000) }),
  ).toString('base64url');
  return `${payload}.${signatureOf(signingKey(secret), payload).toString('base64url')}`;
}

const isVariantMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((variant) => typeof variant === 'string');

/**
 * The session a token names, when the API signed it and it has not expired (beyond the
 * grace period); else null, whatever is wrong with it.
 */
export function verifyVisitSession(secret: string, token: string | null, now: Date): VisitSession | null {
  if (!token || token.length > MAX_TOKEN_CHARS) return null;
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  // Compared as text: base64url decoding ignores the last character's two spare bits, so
  // comparing decoded bytes would take four spellings of one signature.
  const expected = Buffer.from(signatureOf(signingKey(secret), payload).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let fields: { s?: unknown; v?: unknown; e?: unknown };
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof fields;
  } catch {
    return null;
  }
  if (!isSessionId(fields.s) || !isVariantMap(fields.v) || typeof fields.e !== 'number') return null;
  const expiresAt = new Date(fields.e * 1000);
  if (now.getTime() > expiresAt.getTime() + VISIT_SESSION_GRACE_MS) return null;
  return { sessionId: fields.s, variants: fields.v, expiresAt };
}

/** The variant `session` holds for the experiment on `path`, or null (no session, no experiment there). */
export function sessionVariantOn(session: VisitSession | null, path: string | null | undefined): string | null {
  const experiment = experimentOfPath(path);
  return (session && experiment && session.variants[experiment.id]) || null;
}

/**
 * When a token issued at `now` expires: at the end of its UTC day, when the assignment's
 * day key changes (hero-assignment.ts). A visit on the next day gets a new session and the
 * variant the pages then show it.
 */
export function endOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
