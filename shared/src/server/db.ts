import knex, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from './logger';

// COUNT(*) and bigserial ids come back as int8; our figures stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface DbOptions {
  poolMax?: number;
  applicationName: string;
  /** Where knex's own warnings go (instead of the console). */
  logger?: Logger;
}

/**
 * Knex on pg with short timeouts: when Postgres is down or stuck, a request fails within
 * seconds (and the API answers 503) instead of waiting for the default minute.
 */
export function createDb(url: string, { poolMax = 10, applicationName, logger }: DbOptions): Knex {
  const message = (value: unknown) => (value instanceof Error ? value.message : String(value));
  return knex({
    ...(logger
      ? {
          log: {
            warn: (value: unknown) => logger.warn({ knex: message(value) }, 'knex warning'),
            error: (value: unknown) => logger.error({ knex: message(value) }, 'knex error'),
            deprecate: (value: unknown) => logger.warn({ knex: message(value) }, 'knex deprecation'),
            debug: () => undefined,
          },
        }
      : {}),
    client: 'pg',
    connection: {
      connectionString: url,
      application_name: applicationName,
      connectionTimeoutMillis: 3000,
      statement_timeout: 15_000,
    },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 5000,
  });
}

export type Db = Knex;
