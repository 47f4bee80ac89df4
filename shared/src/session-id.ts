/**
 * A visitor's session id (cookie consent, analytics): the spec's random id, at least 21
 * characters of the URL-safe alphabet (nanoid's). Without zod: the browser checks its
 * stored ids with it on the first load.
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{21,64}$/;

export const isSessionId = (value: unknown): value is string =>
  typeof value === 'string' && SESSION_ID_PATTERN.test(value);
