/**
 * `.env.example` is where operators learn the configuration: it names every variable the
 * code reads (the environment schemas of the API, the worker and the web build, and every
 * other `process.env.NAME` in code that runs, builds or sets up the product), and nothing
 * that no code reads any more.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { siteEnv } from '@guida/shared/config';
import { apiEnvSchema } from '../../api/src/config';
import { workerEnvSchema } from '../../worker/src/config';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Code that ships, builds or sets up the product; tests, test helpers and benchmarks do not. */
const SCANNED = ['api/src', 'worker/src', 'shared/src', 'migrations', 'web/app', 'web/tooling', 'web', 'guides', 'scripts'];
const NOT_SCANNED = /(\.test\.tsx?$|\/e2e\/|\/testing\/|\/node_modules\/|\/build\/|\/dist\/|\/\.react-router\/)/;

function sourceFiles(folder: string, deep: boolean): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (NOT_SCANNED.test(`/${path}${entry.isDirectory() ? '/' : ''}`)) return [];
    if (entry.isDirectory()) return deep ? sourceFiles(path, deep) : [];
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** `process.env.NAME` and `process.env['NAME']`, read (an assignment alone is not a read). */
const ENV_READ = /process\.env(?:\.([A-Z][A-Z0-9_]*)(?![\w$])|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])(?!\s*=[^=])/g;

/** The operating system's own, which scripts pass on (PATH to a fetched Node), not settings. */
const SYSTEM_VARIABLES = new Set(['PATH']);

function variablesReadInCode(): Map<string, string> {
  const readers = new Map<string, string>();
  const files = new Set(SCANNED.flatMap((folder) => sourceFiles(folder, folder !== 'web')));
  for (const file of files) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(ENV_READ)) {
      const name = (match[1] ?? match[2])!;
      if (!readers.has(name) && !SYSTEM_VARIABLES.has(name)) readers.set(name, file);
    }
  }
  return readers;
}

/** Every `NAME=` line, commented out or not (commented: documented, not set by default). */
const documented = new Set(
  [...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!),
);

const schemaVariables = new Map<string, string>([
  ...Object.keys(apiEnvSchema.in.shape).map((name): [string, string] => [name, 'api/src/config.ts']),
  ...Object.keys(workerEnvSchema.shape).map((name): [string, string] => [name, 'worker/src/config.ts']),
  ...Object.keys(siteEnv).map((name): [string, string] => [name, 'shared/src/config.ts (siteEnv)']),
]);

describe('.env.example', () => {
  it('names every variable of the API, worker and web build schemas', () => {
    const missing = [...schemaVariables].filter(([name]) => !documented.has(name));
    expect(missing.map(([name, where]) => `${name} (${where})`)).toEqual([]);
  });

  it('names every other variable the code reads', () => {
    const missing = [...variablesReadInCode()].filter(([name]) => !documented.has(name));
    expect(missing.map(([name, where]) => `${name} (${where})`)).toEqual([]);
  });

  it('names nothing that no code reads', () => {
    const read = new Set([...schemaVariables.keys(), ...variablesReadInCode().keys()]);
    expect([...documented].filter((name) => !read.has(name))).toEqual([]);
  });
});
