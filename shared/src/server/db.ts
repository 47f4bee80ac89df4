import { readFileSync } from 'node:fs';
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
  /**
   * Longest a statement may run, in ms; null for none (migrations: an index build may take
   * minutes). Default 15 s: when Postgres is stuck, a request fails within seconds.
   */
  statementTimeoutMs?: number | null;
  /** PEM of the CA that signed the server's certificate (DATABASE_SSL_CA): TLS, verified. */
  sslCa?: string;
  /** `transaction`: the connection is a transaction pooler's (DATABASE_POOL_MODE). */
  poolMode?: 'session' | 'transaction';
}

export const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * Knex on pg with short timeouts: when Postgres is down or stuck, a request fails within
 * seconds (and the API answers 503) instead of waiting for the default minute.
 *
 * The statement timeout is set after connecting, never as a start-up parameter: PgBouncer
 * in transaction mode (Supabase, Neon, DigitalOcean, Heroku's and RDS Proxy's poolers)
 * refuses unknown start-up parameters and closes the connection. Behind such a pooler the
 * SET reaches one server connection of the pool, so the client's own query timeout is the
 * bound that always holds; ops set the server side per role (docs/ops/postgres.md).
 */
export function createDb(
  url: string,
  { poolMax = 10, applicationName, logger, statementTimeoutMs = STATEMENT_TIMEOUT_MS, sslCa, poolMode = 'session' }: DbOptions,
): Knex {
  const message = (value: unknown) => (value instanceof Error ? value.message : String(value));
  const config: Knex.Config & PoolModeConfig = {
    poolMode,
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
      // Client side, so it holds behind any pooler; a second more than the server's own.
      ...(statementTimeoutMs === null ? {} : { query_timeout: statementTimeoutMs + 1000 }),
      ...(sslCa ? { ssl: { ca: sslCa, rejectUnauthorized: true } } : {}),
    },
    pool: {
      min: 0,
      max: poolMax,
      ...(statementTimeoutMs === null
        ? {}
        : {
            afterCreate(connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void) {
              connection.query(`SET statement_timeout = ${Math.trunc(statementTimeoutMs)}`, (error: Error | null) =>
                done(error, connection),
              );
            },
          }),
    },
    acquireConnectionTimeout: 5000,
  };
  return knex(config);
}

/** Kept in knex's client config, which a transaction's client shares. */
interface PoolModeConfig {
  poolMode: 'session' | 'transaction';
}

/** Whether a statement may be prepared under a name: not through a transaction pooler. */
export const namedStatementsAllowed = (db: Knex) => (db.client.config as Partial<PoolModeConfig>).poolMode !== 'transaction';

/** The settings of the database env (shared/src/config.ts) as createDb's options. */
export function databaseSettings(config: {
  DATABASE_POOL_MAX: number;
  DATABASE_POOL_MODE: 'session' | 'transaction';
  DATABASE_SSL_CA?: string | undefined;
}) {
  return {
    poolMax: config.DATABASE_POOL_MAX,
    poolMode: config.DATABASE_POOL_MODE,
    ...(config.DATABASE_SSL_CA ? { sslCa: readFileSync(config.DATABASE_SSL_CA, 'utf8') } : {}),
  };
}

export type Db = Knex;
