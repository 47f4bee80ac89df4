// @ts-check
/**
 * `npm run test:node-next`: the unit and integration tests on the next Node.js major (26),
 * pinned and fetched like the LTS `npm test` runs on (scripts/lib/node-runtime.mjs,
 * decision 056), so the next upgrade is known to work before it is needed. The system
 * and browser tests are left to `npm test`. The services are found as `npm test` finds them.
 */
import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './lib/dependencies.mjs';
import { runNodeNextTests } from './lib/node-next-tests.mjs';
import { ensureNodeRuntime } from './lib/node-runtime.mjs';
import { exitWith, log } from './lib/output.mjs';
import { prepareTestServices } from './lib/test-services.mjs';

try {
  ensureDependencies();
  await prepareTestServices();
  const version = spawnSync(ensureNodeRuntime('next'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  log('test', `unit and integration tests on Node.js ${version}`);
  process.exit(await runNodeNextTests(process.argv.slice(2)));
} catch (error) {
  exitWith(error);
}
