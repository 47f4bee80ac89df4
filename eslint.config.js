// @ts-check
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** @param {string[]} names @param {string} message */
const forbid = (names, message) => names.map((name) => ({ group: [name, `${name}/*`], message }));

const WEB_BUILD_TIME = ['web/app/**/*.server.ts', 'web/tooling/**', 'web/react-router.config.ts', 'web/vite.config.ts'];
/** @typedef {{ group: string[], message: string } | { regex: string, message: string }} RestrictedImport */
/** @type {RestrictedImport[]} */
const WEB_TO_SERVER = [
  ...forbid(['@guida/api', '@guida/worker', '@guida/migrations'], 'web talks to the API over HTTP only.'),
  { group: ['**/api/src/**', '**/worker/src/**'], message: 'web never imports api or worker code.' },
];

const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/e2e/**'];
/**
 * Files that only tests, builds and development tools run: besides the `dependencies` of
 * their package they may use its `devDependencies`, which a production install drops.
 */
const DEV_TIME_FILES = [
  ...TEST_FILES,
  'web/vite.config.ts',
  'web/react-router.config.ts',
  // The route table, read by react-router's build.
  'web/app/routes.ts',
  'web/tooling/**',
  // The root package: tooling only, it has no runtime dependencies.
  '*.{js,mjs,ts}',
  'scripts/**',
  'bench/**',
  'guides/**',
  'tests/**',
];
const NO_TEST_HELPERS = {
  group: ['@guida/testing', '@guida/testing/*'],
  message: 'test helpers stay out of production code.',
};

/**
 * One rule entry per area (flat config replaces, not merges, a rule's options): production
 * files get the area's patterns plus "no test helpers", test files the area's patterns.
 * @param {string[]} files
 * @param {RestrictedImport[]} patterns
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
    // An inner array matches what matches all of its globs: the area's test files.
    files: files.flatMap((area) => TEST_FILES.map((test) => [area, test])),
    ignores,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  },
];

/** First-level folders of api/src and worker/src that every feature may use; the others are features. */
const SHARED_INFRASTRUCTURE = ['http', 'db', 'testing', 'providers'];
/** How many folders deep feature files are checked (`<feature>/<sub>/<sub>/file.ts`). */
const FEATURE_DEPTHS = [1, 2, 3];

/**
 * Feature folders talk through their front door (decision 022): from another feature only
 * `../<feature>` (its index.ts) may be imported. A path that climbs to src (one `../` per
 * folder the file is deep) and goes past a folder other than the shared infrastructure is
 * another feature's internals.
 * @param {number} depth folders between src and the importing file
 * @returns {RestrictedImport}
 */
const featureInternals = (depth) => ({
  regex: `^(\\.\\./){${depth}}(?!${SHARED_INFRASTRUCTURE.map((folder) => `${folder}/`).join('|')})[^./][^/]*/(?!index$)`,
  message:
    'a feature imports another feature only through its front door, `<feature>/index.ts` (docs/decisions/022); ' +
    'within a feature, import without climbing to src.',
});

/**
 * The feature rule for `<src>/<feature>/**`, with the package's own patterns repeated (an
 * entry replaces them).
 * @param {string} src
 * @param {RestrictedImport[]} patterns the package's patterns
 * @returns {import('eslint').Linter.Config[]}
 */
const featureBoundaries = (src, patterns) =>
  FEATURE_DEPTHS.flatMap((depth) =>
    importBoundaries(
      [`${src}/${'*/'.repeat(depth)}*.ts`],
      [...patterns, featureInternals(depth)],
      SHARED_INFRASTRUCTURE.map((folder) => `${src}/${folder}/**`),
    ),
  );

/** What the browser's code may not import: the servers, and server-only shared code. */
const WEB_BROWSER = [
  ...WEB_TO_SERVER,
  {
    group: ['@guida/shared/server/*', '@guida/shared/config'],
    message: 'server-only code stays out of the browser bundle.',
  },
  {
    // The delivery module writes the delivery tables; the browser only shows its statuses.
    group: ['@guida/shared/deliveries/*', '!@guida/shared/deliveries/delivery-statuses'],
    message: 'server-only code stays out of the browser bundle (the statuses are in delivery-statuses).',
  },
];

/**
 * The walls of web/app (decision 022, extended by 046): routes and the page shells of
 * layouts/ put features together; a feature uses another only through its index.ts;
 * components/ and lib/ are the bottom layer and import no feature, layout or route.
 * @param {string} climb the path from the importing file up to web/app, as a regex
 * @returns {RestrictedImport}
 */
const webFeatureFrontDoor = (climb) => ({
  regex: `^${climb}features/[^/]+/(?!index$)`,
  message: 'pages and layouts use a feature only through its front door, `features/<feature>/index.ts` (decision 022).',
});
/**
 * From a feature's file `depth` folders below features/: another feature's internals (or
 * its own, reached by climbing out of it).
 * @param {number} depth
 * @returns {RestrictedImport}
 */
const webFeatureInternals = (depth) => ({
  regex: `^(\\.\\./){${depth}}[^./][^/]*/(?!index$)`,
  message:
    'a feature imports another feature only through its front door, `<feature>/index.ts` (decision 022); ' +
    'within a feature, import without climbing out of it.',
});
/** @type {RestrictedImport} */
const WEB_BOTTOM_LAYER = {
  regex: '^(\\.\\.?/)+(features|layouts|routes)(/|$)',
  message: 'components/ and lib/ are shared by every page: they import no feature, layout or route (decision 022).',
};
const webWalls = [
  ...importBoundaries(['web/app/components/**', 'web/app/lib/**'], [...WEB_BROWSER, WEB_BOTTOM_LAYER]),
  ...importBoundaries(['web/app/layouts/**', 'web/app/routes/**'], [...WEB_BROWSER, webFeatureFrontDoor('\\.\\./')]),
  ...importBoundaries(['web/app/*.{ts,tsx}'], [...WEB_BROWSER, webFeatureFrontDoor('\\./')], WEB_BUILD_TIME),
  ...FEATURE_DEPTHS.flatMap((depth) =>
    importBoundaries([`web/app/features/${'*/'.repeat(depth)}*.{ts,tsx}`], [...WEB_BROWSER, webFeatureInternals(depth)]),
  ),
];

const WORKER_IMPORTS = [
  ...forbid(['@guida/api', '@guida/web'], 'the worker shares code with the API only through @guida/shared.'),
  { group: ['**/api/src/**', '**/web/app/**'], message: 'the worker never imports api or web code.' },
];
const API_IMPORTS = [
  ...forbid(['@guida/worker', '@guida/web'], 'the API shares code with the worker only through @guida/shared.'),
  { group: ['**/worker/src/**', '**/web/app/**'], message: 'the API never imports worker or web code.' },
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
      // Scratch space, gitignored: the pinned Node.js runtimes, a developer's own scripts.
      '.cache/**',
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
  {
    // Every package declares what its files import, in the package.json closest to them
    // (hoisting would hide a missing one until a production install drops it); production
    // files only from `dependencies`. Our workspaces (@guida/*) count too.
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: DEV_TIME_FILES, includeInternal: true }],
    },
  },
  // Import boundaries: web and worker never import api; shared imports nothing of ours;
  // production code never imports test helpers; feature folders of api and worker import
  // each other only through a front door.
  ...importBoundaries(['web/**'], WEB_BROWSER, WEB_BUILD_TIME),
  ...webWalls,
  // Build-time code of the web (loaders' helpers, build hooks) may read the configuration.
  ...importBoundaries(WEB_BUILD_TIME, WEB_TO_SERVER),
  ...importBoundaries(['worker/**'], WORKER_IMPORTS),
  ...featureBoundaries('worker/src', WORKER_IMPORTS),
  ...importBoundaries(['api/**'], API_IMPORTS),
  ...featureBoundaries('api/src', API_IMPORTS),
  // Its tests may use the test harness (real databases), like every other package's.
  ...importBoundaries(['shared/**'], [
    ...forbid(['@guida/api', '@guida/worker', '@guida/web', '@guida/migrations'], 'shared imports nothing of ours.'),
  ]),
  {
    files: ['scripts/**', 'bench/**', 'guides/**', '**/*.test.ts', 'testing/**', 'api/src/db/migrate.ts', 'api/src/admin/create-admin.ts'],
    rules: { 'no-console': 'off' },
  },
);
