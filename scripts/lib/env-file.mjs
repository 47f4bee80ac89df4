// @ts-check
/**
 * Loads `.env` into process.env (variables already set win). On a fresh clone it first
 * creates `.env` from `.env.example` with freshly generated secrets, so
 * `npm start` needs nothing by hand and no secret lives in the repository.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { log, ROOT } from './output.mjs';

/** @param {{ create: boolean }} options create `.env` when missing (not in production) */
export function loadEnvFile({ create }) {
  const envPath = join(ROOT, '.env');
  if (!existsSync(envPath)) {
    if (!create) return;
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const secret = () => randomBytes(32).toString('base64url');
    const withSecrets = example
      .replace(/^SESSION_SECRET=.*$/m, `SESSION_SECRET=${secret()}`)
      .replace(/^LINK_TOKEN_SECRET=.*$/m, `LINK_TOKEN_SECRET=${secret()}`)
      .replace(/^SUPPRESSION_HASH_SECRET=.*$/m, `SUPPRESSION_HASH_SECRET=${secret()}`)
      .replace(/^ADMIN_SECOND_FACTOR_KEY=.*$/m, `ADMIN_SECOND_FACTOR_KEY=${secret()}`);
    writeFileSync(envPath, withSecrets, { mode: 0o600 });
    log(
      'setup',
      'created .env from .env.example with a new SESSION_SECRET, LINK_TOKEN_SECRET, SUPPRESSION_HASH_SECRET and ADMIN_SECOND_FACTOR_KEY',
    );
  }
  const values = parseEnv(readFileSync(envPath, 'utf8'));
  for (const [key, value] of Object.entries(values)) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}
