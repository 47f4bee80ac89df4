import { once } from 'node:events';
import { parseEnv } from '@guida/shared/config';
import { createLogger, type Logger } from '@guida/shared/server/logger';
import { createTestDatabase } from '@guida/testing/test-database';
import { deleteRedisKeys, uniquePrefix } from '@guida/testing/test-redis';
import { testRedisUrl } from '@guida/testing/services';
import { createApp } from '../app';
import { apiEnvSchema } from '../config';
import { createApiDependencies } from '../dependencies';

export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef';

/**
 * The real app on a private copy of the test database and a private Redis key prefix.
 * `env` overrides any variable (e.g. a low rate limit, or DATABASE_URL of a dead server);
 * `now`, the clock of the offer's deadline.
 */
export async function createTestApi(env: Record<string, string> = {}, options: { logger?: Logger; now?: () => Date } = {}) {
  const database = await createTestDatabase();
  const prefix = uniquePrefix('api');
  const config = parseEnv(apiEnvSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: prefix,
    SESSION_SECRET: TEST_SESSION_SECRET,
    // Tests post many forms from one loopback address; the challenge's own tests turn it on.
    CHALLENGE_MODE: 'off',
    ...env,
  });
  const logger = options.logger ?? createLogger({ service: 'api-test', level: config.LOG_LEVEL });
  const deps = createApiDependencies(config, logger);
  // The offer's clock (decision 047): a test moves it past a deadline.
  if (options.now) deps.now = options.now;
  const app = createApp(deps);
  if (config.REDIS_URL === testRedisUrl() && deps.redis.status !== 'ready') {
    // Otherwise the first requests count in the in-memory fallback limiter.
    await once(deps.redis, 'ready');
  }
  return {
    app,
    config,
    deps,
    /** Knex on the test database, for arranging data and checking results. */
    db: database.db,
    prefix,
    async close() {
      await deps.close();
      // The Redis may be a dead address in outage tests.
      await deleteRedisKeys(prefix, config.REDIS_URL).catch(() => undefined);
      await database.drop();
    },
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;

let phoneCounter = 0;
/** A distinct valid Italian mobile number per call (+39 347 …). */
export function uniqueItalianMobile() {
  phoneCounter += 1;
  const digits = String((process.pid * 1000 + phoneCounter) % 10_000_000).padStart(7, '0');
  return `+39347${digits}`;
}

export function validLead(overrides: Record<string, unknown> = {}) {
  return {
    nome: 'Mario',
    cognome: 'Rossi',
    email: 'mario.rossi@example.it',
    telefono: uniqueItalianMobile(),
    gdprConsent: true,
    ebookType: 'financial-education',
    source: 'landing-page',
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'autunno',
    ...overrides,
  };
}
