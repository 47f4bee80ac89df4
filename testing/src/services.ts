import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the migrated template database; test databases are copies of it. */
    testDatabaseUrl: string;
    testRedisUrl: string;
  }
}

export const testDatabaseUrl = () => inject('testDatabaseUrl');
export const testRedisUrl = () => inject('testRedisUrl');

/** A short random name part, for databases, Redis prefixes and queue names. */
export const randomSuffix = () => Math.random().toString(36).slice(2, 10);
