// @ts-check
/**
 * `npm run test:node-next`: the unit and integration tests on the next Node.js major (26),
 * pinned and fetched like the LTS `npm test` runs on (scripts/lib/node-runtime.mjs,
 * decision 056), so the next upgrade is known to work before it is needed. The system
 * and browser tests are left to `npm test`. The services are found as `npm test` finds them.
 */
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { ensureDependencies } from './lib/dependencies.mjs';
import { ensureNodeRuntime } from './lib/node-runtime.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';
import { prepareTestServices } from './lib/test-services.mjs';

const NOT_UNIT_OR_INTEGRATION = ['tests/system/**', 'web/e2e/**', '**/*.browser.test.ts'];

try {
  ensureDependencies();
  const node = ensureNodeRuntime('next');
  await prepareTestServices();
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  log('test', `unit and integration tests on Node.js ${version}`);
  const vitest = spawnSync(
    node,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      ...NOT_UNIT_OR_INTEGRATION.flatMap((glob) => ['--exclude', glob]),
      ...process.argv.slice(2),
    ],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` } },
  );
  process.exit(vitest.status ?? 1);
} catch (error) {
  exitWith(error);
}
