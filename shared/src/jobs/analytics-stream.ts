/**
 * Analytics events travel from the API to the worker through a Redis stream (lighter
 * than a job per event). The API appends validated events; the worker reads them with a
 * consumer group, inserts them in batches and acknowledges them only once stored.
 */
export const analyticsStreamKey = (prefix: string) => `${prefix}:analytics:events`;
export const ANALYTICS_CONSUMER_GROUP = 'analytics-writers';

/** Bounds the stream if the worker is down for long (Redis runs with noeviction). */
export const ANALYTICS_STREAM_MAX_LENGTH = 500_000;

/** The one field of a stream entry: a JSON array of IngestedEvent. */
export const ANALYTICS_ENTRY_FIELD = 'events';
