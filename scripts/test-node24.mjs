// @ts-check
/**
 * `npm run test:node24`: the unit and integration tests on Node.js 24, the LTS, installed
 * from the npm registry into .cache/node24 (decision 037). `npm test` runs everything on the
 * machine's own Node (20 here). The system tests (bundled processes) and the browser tests
 * are left to `npm test`. The services are found as `npm test` finds them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureDependencies } from './lib/dependencies.mjs';
import { ensureNode24 } from './lib/node24.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';
import { prepareTestServices } from './lib/test-services.mjs';

const NOT_UNIT_OR_INTEGRATION = ['tests/system/**', 'web/e2e/**', '**/*.browser.test.ts'];

try {
  ensureDependencies();
  const node = ensureNode24();
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
    { cwd: ROOT, stdio: 'inherit' },
  );
  process.exit(vitest.status ?? 1);
} catch (error) {
  exitWith(error);
}
