// @ts-check
// The defaults of shared/src/config.ts, for the set-up scripts that run before any
// TypeScript can (a unit test keeps the two in step).
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/guida';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_PORT = '3000';
