/**
 * `node api/dist/migrate.js [latest|up|down|rollback|status]` — runs the knex migrations
 * against DATABASE_URL. The Procfile's `release` runs it on every deploy; `npm run
 * migrate` runs it in development.
 */
import { migrationConfig } from '@guida/migrations';
import { z } from 'zod';
import { commonEnv, loadConfigOrExit } from '@guida/shared/config';
import { createDb } from '@guida/shared/server/db';

const { DATABASE_URL } = loadConfigOrExit(z.object({ DATABASE_URL: commonEnv.DATABASE_URL }));
const command = process.argv[2] ?? 'latest';
const db = createDb(DATABASE_URL, { applicationName: 'guida-migrate', poolMax: 2 });

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
