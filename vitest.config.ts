import { defineConfig } from 'vitest/config';

/** Tests that run the bundled processes or Chromium (system and browser tests). */
const PROCESS_TESTS = ['tests/system/**', 'web/e2e/**', '**/*.browser.test.ts'];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'web/build/**'],
    globalSetup: ['testing/src/global-setup.ts'],
    setupFiles: ['testing/src/console-guard.ts'],
    pool: 'forks',
    // Two files at a time on these 2-core machines (vitest's default would be one): every
    // file has its own database copy, Redis prefix, ports and processes, and most of a
    // file's time is spent waiting on them or on Chromium.
    maxWorkers: 2,
    // Some tests start a site of their own (API process, an admin hashed with argon2id) before
    // the browser opens it: with two files at a time on a busy machine that can pass 30 s.
    testTimeout: 60_000,
    // Public pages start their cookie check, widgets and tracking once the browser is idle
    // after hydration (up to 2 s later on a busy machine): the 1 s default is too short.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 60_000,
    // The page-by-page browser checks (accessibility, the header's button) run a few pages
    // at a time: a page spends most of its time waiting on hydration and the idle queue.
    maxConcurrency: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit-integration',
          include: ['{shared,migrations,api,worker,guides,scripts,testing,tests,web}/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', 'web/build/**', ...PROCESS_TESTS],
          // One process runs file after file, keeping the packages it loaded (express, knex,
          // BullMQ…): a new process per file spent more CPU loading them than the tests did
          // (decision 063). Each file still has its own database copy and Redis prefix.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'system-browser',
          include: PROCESS_TESTS.map((glob) => (glob.endsWith('.ts') ? glob : `${glob}/*.test.{ts,tsx}`)),
        },
      },
    ],
  },
});
