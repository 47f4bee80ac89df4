/**
 * `node api/dist/migrate.js [latest|up|down|rollback|status]` — runs the knex migrations
 * against DATABASE_DIRECT_URL, or DATABASE_URL when it is unset. The Procfile's `release`
 * runs it on every deploy; `npm run migrate` runs it in development.
 */
import { migrationConfig } from '@guida/migrations';
import { z } from 'zod';
import { commonEnv, loadConfigOrExit } from '@guida/shared/config';
import { createDb, databaseSettings } from '@guida/shared/server/db';

const config = loadConfigOrExit(
  z.object({
    DATABASE_URL: commonEnv.DATABASE_URL,
    DATABASE_DIRECT_URL: commonEnv.DATABASE_DIRECT_URL,
    DATABASE_POOL_MAX: commonEnv.DATABASE_POOL_MAX,
    DATABASE_POOL_MODE: commonEnv.DATABASE_POOL_MODE,
    DATABASE_SSL_CA: commonEnv.DATABASE_SSL_CA,
  }),
);
const command = process.argv[2] ?? 'latest';
// A session of its own (not the pooler's) and no statement timeout: an index build or a
// backfill may run for minutes.
const db = createDb(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL, {
  ...databaseSettings(config),
  applicationName: 'guida-migrate',
  poolMax: 2,
  statementTimeoutMs: null,
});

async function run() {
  switch (command) {
    case 'latest': {
      const [batch, names] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
      console.log(names.length ? `batch ${batch}: ${names.join(', ')}` : 'already up to date');
      break;
    }
    case 'up': {
      const [, names] = (await db.migrate.up(migrationConfig)) as [number, string[]];
      console.log(names.length ? `applied ${names.join(', ')}` : 'already up to date');
      break;
    }
    case 'down': {
      const [, names] = (await db.migrate.down(migrationConfig)) as [number, string[]];
      console.log(names.length ? `reverted ${names.join(', ')}` : 'nothing to revert');
      break;
    }
    case 'rollback': {
      const [, names] = (await db.migrate.rollback(migrationConfig, true)) as [number, string[]];
      console.log(names.length ? `reverted ${names.join(', ')}` : 'nothing to revert');
      break;
    }
    case 'status': {
      const [done, pending] = (await db.migrate.list(migrationConfig)) as [
        { name: string }[],
        string[],
      ];
      console.log(`applied: ${done.map((m) => m.name).join(', ') || 'none'}`);
      console.log(`pending: ${pending.join(', ') || 'none'}`);
      break;
    }
    default:
      throw new Error(`unknown command "${command}" (latest, up, down, rollback, status)`);
  }
}

run()
  .then(() => db.destroy())
  .catch(async (error: unknown) => {
    console.error(`migration failed: ${(error as Error).message}`);
    await db.destroy();
    process.exit(1);
  });
