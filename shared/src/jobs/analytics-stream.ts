/**
 * Analytics events travel from the API to the worker through a Redis stream (lighter
 * than a job per event). The API appends validated events; the worker reads them with a
 * consumer group, inserts them in batches and acknowledges them only once stored.
 */
export const analyticsStreamKey = (prefix: string) => `${prefix}:analytics:events`;
export const ANALYTICS_CONSUMER_GROUP = 'analytics-writers';

/*
 * The stream shares its Redis (noeviction) with the SMS queue and the admin sessions, so it
 * is bounded three ways while the worker is down or slow, oldest entries first: by age, by
 * approximate memory (ANALYTICS_STREAM_MAX_MB, measured by the API every few seconds), and
 * by count as a backstop. Analytics are the data we can best afford to lose.
 */
export const ANALYTICS_STREAM_MAX_AGE_MS = 6 * 3600 * 1000;
export const ANALYTICS_STREAM_MAX_LENGTH = 200_000;

/** The one field of a stream entry: a JSON array of IngestedEvent. */
export const ANALYTICS_ENTRY_FIELD = 'events';

/**
 * Events PostgreSQL refuses even one at a time, and stream entries that are not events:
 * set aside here (newest first, the last ANALYTICS_DEAD_LETTERS_KEPT) so that one of them
 * never stops the ingestion, counted for the admin's queues tab.
 */
export const analyticsDeadLettersKey = (prefix: string) => `${prefix}:analytics:dead-letters`;
export const analyticsDeadLetterCountKey = (prefix: string) => `${prefix}:analytics:dead-letters:count`;
export const ANALYTICS_DEAD_LETTERS_KEPT = 1000;
/** The raw event kept with a dead letter, cut to this many characters. */
export const ANALYTICS_DEAD_LETTER_RAW_CHARS = 2000;

/** One item of the dead-letter list (JSON). */
export interface AnalyticsDeadLetter {
  /** When it was set aside (ISO). */
  at: string;
  /** The stream entry it came from. */
  entryId: string;
  /** Why: PostgreSQL's error code and message, or what was wrong with the entry. */
  reason: string;
  /** The event (or entry) as read from the stream, cut. */
  raw: string;
}
