import type { Knex } from 'knex';
import pg from 'pg';
import { createDb } from '@guida/shared/server/db';
import { randomSuffix, testDatabaseUrl } from './services';

export interface TestDatabase {
  url: string;
  /** A knex handle for arranging data and checking results. */
  db: Knex;
  drop(): Promise<void>;
}

function adminUrl(url: string) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

/**
 * A private, migrated database for one test file: a copy of the template the global
 * setup built, so tests can count rows without seeing each other's data. With `empty`,
 * a database without any table, for tests of the migrations themselves.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const template = testDatabaseUrl();
  const templateName = new URL(template).pathname.slice(1);
  const name = `${templateName}_${randomSuffix()}`;
  const client = new pg.Client({ connectionString: adminUrl(template) });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await client.query(`CREATE DATABASE "${name}"${options.empty ? '' : ` TEMPLATE "${templateName}"`}`);
        break;
      } catch (error) {
        // 55006: another copy is being made from the template right now.
        if ((error as { code?: string }).code !== '55006' || attempt > 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(template);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { applicationName: 'guida-test', poolMax: 4 });
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      const admin = new pg.Client({ connectionString: adminUrl(template) });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
