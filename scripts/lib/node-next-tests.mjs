// @ts-check
/**
 * The unit and integration tests (vitest.config.ts's project `unit-integration`) on the
 * next Node.js major (26), for `npm run test:node-next`. They copy a template database of
 * their own, `<test database>_node_next`, so a run on Node 26 and one on the LTS can share
 * the PostgreSQL server at the same time (decision 063).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { delimiter, dirname, join } from 'node:path';
import { ensureNodeRuntime } from './node-runtime.mjs';
import { ROOT } from './output.mjs';

/** The database URL with `_node_next` after its name. @param {string} url */
export function nodeNextDatabaseUrl(url) {
  const own = new URL(url);
  own.pathname = `${own.pathname}_node_next`;
  return own.toString();
}

/**
 * Starts vitest on Node 26 over the unit and integration tests (Node 26 is fetched first,
 * pinned and checked). Call after the test services are prepared (TEST_DATABASE_URL set,
 * unless the tests start containers). Resolves with vitest's exit status.
 * @param {string[]} vitestArgs
 */
export async function runNodeNextTests(vitestArgs) {
  const node = ensureNodeRuntime('next');
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  if (env.TEST_DATABASE_URL) env.TEST_DATABASE_URL = nodeNextDatabaseUrl(env.TEST_DATABASE_URL);
  const vitest = spawn(
    node,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      // vitest.config.ts's project of the unit and integration tests.
      '--project',
      'unit-integration',
      ...vitestArgs,
    ],
    { cwd: ROOT, stdio: 'inherit', env },
  );
  const [code] = await once(vitest, 'exit');
  return /** @type {number | null} */ (code) ?? 1;
}
