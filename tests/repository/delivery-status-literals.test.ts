/**
 * Decision 021: a delivery's statuses are spelt in one place, shared/src/deliveries/.
 * Everywhere else a status is compared or queried through the constants and transitions
 * that module exports, so a renamed or added status cannot leave a query counting the old
 * word. This reads the source of every package and finds a status word written by hand
 * beside a `status` column or field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SMS_STATUSES, DELIVERY_STATUSES } from '@guida/shared/deliveries/delivery-statuses';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_ROOTS = ['api/src', 'worker/src', 'shared/src', 'web/app'];
/** The delivery module itself, where the words are defined. */
const OWNER = 'shared/src/deliveries/';

const words = [...new Set<string>([...SMS_STATUSES, ...DELIVERY_STATUSES])].join('|');
const status = String.raw`(?<![A-Za-z])status['"]?`;
const HAND_WRITTEN = [
  // status === 'sent', status: 'held' (a knex where object), status = 'pending' (SQL)
  new RegExp(String.raw`${status}\s*(?:={1,3}|!==?|<>|:)\s*'(?:${words})'`),
  // where('status', 'skipped'), whereIn('status', ['retrying', …])
  new RegExp(String.raw`${status}\s*,\s*\[?\s*'(?:${words})'`),
  // status IN ('retrying', 'failed')
  new RegExp(String.raw`${status}\s+(?:NOT\s+)?IN\s*\(\s*'(?:${words})'`, 'i'),
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** `file:line: text` of each hand-written status in `files`. */
function handWrittenStatuses(files: string[]) {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        HAND_WRITTEN.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
}

describe('delivery status words', () => {
  const files = SOURCE_ROOTS.flatMap(sourceFiles);

  it('are written only in the delivery module', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(handWrittenStatuses(files.filter((file) => !file.startsWith(OWNER)))).toEqual([]);
  });

  it('are found when written by hand (the check can fail)', () => {
    // The module itself spells them: the same scan must find its lines.
    const owned = files.filter((file) => file.startsWith(OWNER));
    expect(owned.map((file) => relative(OWNER, file))).toContain('delivery-statuses.ts');
    expect(handWrittenStatuses(owned).length).toBeGreaterThan(0);
    for (const line of [
      `.where({ id, status: 'pending' })`,
      `if (latest.status !== 'delivered') return;`,
      `.whereIn('status', ['retrying', 'failed'])`,
      `WHERE status IN ('retrying', 'failed')`,
      "count(*) FILTER (WHERE e.status = 'skipped')",
    ]) {
      expect(HAND_WRITTEN.some((pattern) => pattern.test(line)), line).toBe(true);
    }
    expect(HAND_WRITTEN.some((pattern) => pattern.test(`.where('status', CRM_SKIPPED)`))).toBe(false);
  });
});
