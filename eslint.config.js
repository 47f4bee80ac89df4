// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** @param {string[]} names @param {string} message */
const forbid = (names, message) => names.map((name) => ({ group: [name, `${name}/*`], message }));

const WEB_BUILD_TIME = ['web/app/**/*.server.ts', 'web/tooling/**', 'web/react-router.config.ts'];
/** @type {{ group: string[], message: string }[]} */
const WEB_TO_SERVER = [
  ...forbid(['@guida/api', '@guida/worker', '@guida/migrations'], 'web talks to the API over HTTP only.'),
  { group: ['**/api/src/**', '**/worker/src/**'], message: 'web never imports api or worker code.' },
];

const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/e2e/**'];
const NO_TEST_HELPERS = {
  group: ['@guida/testing', '@guida/testing/*'],
  message: 'test helpers stay out of production code.',
};

/**
 * One rule entry per area (flat config replaces, not merges, a rule's options): production
 * files get the area's patterns plus "no test helpers", test files the area's patterns.
 * @param {string[]} files
 * @param {{ group: string[], message: string }[]} patterns
 * @param {string[]} [ignores] files of the area checked by another entry
 * @returns {import('eslint').Linter.Config[]}
 */
const importBoundaries = (files, patterns, ignores = []) => [
  {
    files,
    ignores: [...TEST_FILES, ...ignores],
    rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, NO_TEST_HELPERS] }] },
  },
  {
    files: files.flatMap((area) => TEST_FILES.map((test) => `${area.replace('/**', '')}/${test}`)),
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'web/build/**',
      'web/.react-router/**',
      'web/public/**',
      'coverage/**',
      '.data/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/app/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The browser has no logger: the spec wants failures "only logged" to the console.
    files: ['web/app/**/*.{ts,tsx}'],
    rules: { 'no-console': ['error', { allow: ['warn', 'error'] }] },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'error',
    },
  },
  // Import boundaries: web and worker never import api; shared imports nothing of ours;
  // production code never imports test helpers.
  ...importBoundaries(
    ['web/**'],
    [
      ...WEB_TO_SERVER,
      {
        group: ['@guida/shared/server/*', '@guida/shared/config'],
        message: 'server-only code stays out of the browser bundle.',
      },
    ],
    WEB_BUILD_TIME,
  ),
  // Build-time code of the web (loaders' helpers, build hooks) may read the configuration.
  ...importBoundaries(WEB_BUILD_TIME, WEB_TO_SERVER),
  ...importBoundaries(['worker/**'], [
    ...forbid(['@guida/api', '@guida/web'], 'the worker shares code with the API only through @guida/shared.'),
    { group: ['**/api/src/**', '**/web/app/**'], message: 'the worker never imports api or web code.' },
  ]),
  ...importBoundaries(['api/**'], [
    ...forbid(['@guida/worker', '@guida/web'], 'the API shares code with the worker only through @guida/shared.'),
    { group: ['**/worker/src/**', '**/web/app/**'], message: 'the API never imports worker or web code.' },
  ]),
  ...importBoundaries(['shared/**'], [
    ...forbid(
      ['@guida/api', '@guida/worker', '@guida/web', '@guida/migrations', '@guida/testing'],
      'shared imports nothing of ours.',
    ),
  ]),
  {
    files: ['scripts/**', 'bench/**', 'guides/**', '**/*.test.ts', 'testing/**', 'api/src/db/migrate.ts', 'api/src/admin/create-admin.ts'],
    rules: { 'no-console': 'off' },
  },
);
