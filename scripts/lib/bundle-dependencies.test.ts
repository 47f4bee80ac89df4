import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { packageName, undeclaredBundleImports } from './bundle-dependencies.mjs';
import { ROOT } from './output.mjs';

const output = (paths: string[]): Metafile['outputs'][string] => ({
  bytes: 1,
  inputs: {},
  exports: [],
  imports: paths.map((path) => ({ path, kind: 'import-statement', external: true })),
});

describe('packages the server bundles import', () => {
  it('are named by package, scoped or not', () => {
    expect(packageName('altcha-lib/algorithms/pbkdf2')).toBe('altcha-lib');
    expect(packageName('@node-rs/argon2')).toBe('@node-rs/argon2');
    expect(packageName('@scope/name/sub/path')).toBe('@scope/name');
  });

  it("must be runtime dependencies of the workspace that ships the bundle", () => {
    const metafile: Metafile = {
      inputs: {},
      outputs: {
        // express and pg are api's; autocannon is the root's (a benchmark), hoisted beside them.
        'api/dist/server.js': output(['express', 'node:fs', 'fs', 'pg', 'autocannon/lib/x']),
        'api/dist/server.js.map': output(['vitest']),
        // esbuild is a devDependency of the root, never of the worker.
        'worker/dist/index.js': output(['nodemailer', 'esbuild']),
      },
    };
    expect(undeclaredBundleImports(metafile, ROOT)).toEqual([
      'api/dist/server.js imports autocannon, which api/package.json does not list in "dependencies"',
      'worker/dist/index.js imports esbuild, which worker/package.json does not list in "dependencies"',
    ]);
  });
});
