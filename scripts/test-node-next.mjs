// @ts-check
/**
 * `npm run test:node-next`: the unit and integration tests (vitest.config.ts's project
 * `unit-integration`) on the next Node.js major (26), pinned and fetched like the LTS
 * `npm test` runs on (scripts/lib/node-runtime.mjs, decision 056), so the next upgrade is
 * known to work before it is needed. The system and browser tests are left to `npm test`.
 * The services are found as `npm test` finds them; the tests copy a template database of
 * their own, `<test database>_node_next`, so this run and `npm test` can share the
 * PostgreSQL server at the same time (decision 063).
 */
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { ensureDependencies } from './lib/dependencies.mjs';
import { ensureNodeRuntime } from './lib/node-runtime.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';
import { prepareTestServices } from './lib/test-services.mjs';

try {
  ensureDependencies();
  const node = ensureNodeRuntime('next');
  await prepareTestServices();
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  if (env.TEST_DATABASE_URL) {
    const own = new URL(env.TEST_DATABASE_URL);
    own.pathname = `${own.pathname}_node_next`;
    env.TEST_DATABASE_URL = own.toString();
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  log('test', `unit and integration tests on Node.js ${version}`);
  const vitest = spawnSync(
    node,
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'unit-integration', ...process.argv.slice(2)],
    { cwd: ROOT, stdio: 'inherit', env },
  );
  process.exit(vitest.status ?? 1);
} catch (error) {
  exitWith(error);
}
