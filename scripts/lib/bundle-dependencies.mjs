// @ts-check
/**
 * The server bundles inline our workspaces and leave npm packages to node_modules, and a
 * production install keeps only the `dependencies` of the workspaces (`npm prune
 * --omit=dev`). A package a bundle imports but its workspace does not declare works in
 * development only because npm hoists every workspace's packages to one node_modules; it
 * breaks the day the workspace that does declare it drops it. The build fails instead.
 */
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
export function packageName(/** @type {string} */ specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * The packages each bundle imports that the workspace shipping it (the first folder of the
 * output path: `api/dist/server.js` ships with `api`) does not list in `dependencies`.
 * @param {import('esbuild').Metafile} metafile
 * @param {string} root the folder the output paths are relative to
 * @returns {string[]} one line per problem, empty when every import is declared
 */
export function undeclaredBundleImports(metafile, root) {
  /** @type {Map<string, Record<string, string>>} */
  const dependencies = new Map();
  const dependenciesOf = (/** @type {string} */ workspace) => {
    if (!dependencies.has(workspace)) {
      const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
      dependencies.set(workspace, manifest.dependencies ?? {});
    }
    return /** @type {Record<string, string>} */ (dependencies.get(workspace));
  };
  const problems = [];
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    if (!output.endsWith('.js')) continue;
    const workspace = output.split('/')[0] ?? output;
    const missing = new Set(
      imports
        .filter(({ external, path }) => external && !isBuiltin(path))
        .map(({ path }) => packageName(path))
        .filter((name) => !(name in dependenciesOf(workspace))),
    );
    for (const name of missing) {
      problems.push(`${output} imports ${name}, which ${workspace}/package.json does not list in "dependencies"`);
    }
  }
  return problems;
}
