// @ts-check
/**
 * PostgreSQL and Redis for the tests: containers when a Docker engine answers and no
 * TEST_* URL is set (the vitest global setup starts them), otherwise TEST_DATABASE_URL /
 * TEST_REDIS_URL or the local servers, started if needed.
 */
import { spawnSync } from 'node:child_process';
import { log } from './output.mjs';

const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/guida_test';
const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

export async function prepareTestServices() {
  const { ensurePostgres, ensureRedis } = await import('./services.mjs');
  const explicit = process.env.TEST_DATABASE_URL || process.env.TEST_REDIS_URL;
  const docker = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  if (!explicit && docker) {
    log('test', 'Docker engine found: the tests start their own PostgreSQL and Redis containers');
    process.env.GUIDA_TEST_CONTAINERS = '1';
    return;
  }
  process.env.TEST_DATABASE_URL ||= DEFAULT_TEST_DATABASE_URL;
  process.env.TEST_REDIS_URL ||= DEFAULT_TEST_REDIS_URL;
  await ensurePostgres(process.env.TEST_DATABASE_URL);
  await ensureRedis(process.env.TEST_REDIS_URL);
}
