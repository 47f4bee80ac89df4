import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { integrityOf, NODE_RUNTIMES } from './node-runtime.mjs';

describe('the pinned Node.js runtimes', () => {
  it('name exact versions, the LTS one major below the next', () => {
    for (const { version } of Object.values(NODE_RUNTIMES)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number(NODE_RUNTIMES.next.version.split('.')[0]) - Number(NODE_RUNTIMES.lts.version.split('.')[0])).toBe(2);
  });

  it('check a tarball by the registry’s sha512 integrity', () => {
    // SHA-512 of "abc" (FIPS 180-2's test vector), base64, as npm writes integrity.
    expect(integrityOf(Buffer.from('abc'))).toBe(
      'sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
    );
    expect(integrityOf(Buffer.from('abd'))).not.toBe(integrityOf(Buffer.from('abc')));
  });

  it('are what the Dockerfile and engines promise', () => {
    const root = join(import.meta.dirname, '..', '..');
    const lts = NODE_RUNTIMES.lts.version.split('.')[0];
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(new RegExp(`FROM node:${lts}-`));
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node).toBe(`^${lts}`);
    expect(readdirSync(join(root, 'scripts'))).toContain('test-node-next.mjs');
  });
});
