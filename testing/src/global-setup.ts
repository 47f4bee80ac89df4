/**
 * Runs once per `vitest run`: finds PostgreSQL and Redis (containers when the test script
 * found a Docker engine, else TEST_DATABASE_URL / TEST_REDIS_URL or the local servers),
 * then builds a fresh migrated template database that every test file copies.
 */
import { existsSync } from 'node:fs';
import knex from 'knex';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrationConfig } from '@guida/migrations';
import './services';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/guida_test';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

async function startContainers() {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [postgres, redis] = await Promise.all([
    new GenericContainer('postgres:15-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer('redis:7-alpine')
      .withCommand(['redis-server', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'])
      .withExposedPorts(6379)
      .start(),
  ]);
  return {
    databaseUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/guida_test`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    stop: async () => {
      await Promise.all([postgres.stop(), redis.stop()]);
    },
  };
}

async function recreateTemplate(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    // Copies left behind by an interrupted run (`<template>_<random suffix>`, test-database.ts),
    // then the template itself. Only those: the Node 26 run's `<template>_node_next` and its
    // copies may be in use by a run beside this one (decision 063).
    const stale = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname ~ ('^' || $1 || '_[a-z0-9]{1,8}$')",
      [name],
    );
    for (const { datname } of stale.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const db = knex({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  try {
    await db.migrate.latest(migrationConfig);
  } finally {
    await db.destroy();
  }
}

export default async function setup(project: TestProject) {
  // System tests run the bundled api and worker processes: bundle the current sources.
  const { buildServer, buildWeb } = await import('../../scripts/build.mjs');
  await buildServer();
  // Browser tests need the built site; `npm test` builds it, a bare `vitest` only when missing.
  if (!existsSync(new URL('../../web/build/client/404/index.html', import.meta.url))) buildWeb();
  const containers = process.env.GUIDA_TEST_CONTAINERS === '1' ? await startContainers() : null;
  const databaseUrl = containers?.databaseUrl ?? process.env.TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redisUrl = containers?.redisUrl ?? process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL;
  await recreateTemplate(databaseUrl);
  project.provide('testDatabaseUrl', databaseUrl);
  project.provide('testRedisUrl', redisUrl);
  return async () => {
    await containers?.stop();
  };
}
