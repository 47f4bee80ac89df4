// @ts-check
/**
 * `npm run build`: bundles the API, the migration runner and the worker with esbuild
 * (our TypeScript only; npm packages stay external, and must be runtime dependencies of
 * the workspace that ships the bundle), renders the guide PDFs, and builds
 * the web site when it has a build script. `.env` is read first (variables already set
 * win): the prerendered pages carry the public address and the data controller.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { undeclaredBundleImports } from './lib/bundle-dependencies.mjs';
import { loadEnvFile } from './lib/env-file.mjs';
import { exitWith, log, ROOT } from './lib/output.mjs';

/** Bundles our own workspaces (@guida/*) and leaves every npm package to node_modules. */
const externalPackages = {
  name: 'external-packages',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@guida/') ? undefined : { path: args.path, external: true },
    );
  },
};

export async function buildServer() {
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: {
      'api/dist/server': 'api/src/server.ts',
      'api/dist/migrate': 'api/src/db/migrate.ts',
      'api/dist/create-admin': 'api/src/admin/create-admin.ts',
      'worker/dist/index': 'worker/src/index.ts',
    },
    outdir: '.',
    bundle: true,
    platform: 'node',
    format: 'esm',
    // The Node the project runs on (engines ^24, decision 056).
    target: 'node24',
    sourcemap: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [externalPackages],
  });
  const undeclared = undeclaredBundleImports(metafile, ROOT);
  if (undeclared.length > 0) {
    throw new Error(`the bundles import packages their workspace does not declare:\n  ${undeclared.join('\n  ')}`);
  }
  log('build', 'api and worker bundled (api/dist, worker/dist)');
}

/** @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

export function buildGuides() {
  run(process.execPath, ['--import', 'tsx', 'guides/build-guides.ts', 'guides/dist']);
  log('build', 'guide PDFs rendered (guides/dist)');
}

/**
 * Always a production build, whatever NODE_ENV this process has (`.env` says development):
 * set before the build starts, because packages the build loads early pick their
 * development or production code from it (web/vite.config.ts sets it too, for direct runs).
 */
export function buildWeb() {
  const web = JSON.parse(readFileSync(join(ROOT, 'web', 'package.json'), 'utf8'));
  if (!web.scripts?.build) return;
  run('npm', ['run', 'build', '--workspace', '@guida/web'], { ...process.env, NODE_ENV: 'production' });
  log('build', 'web site built (web/build)');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    loadEnvFile({ create: false });
    await buildServer();
    buildGuides();
    buildWeb();
  } catch (error) {
    exitWith(error);
  }
}
