// @ts-check
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** @param {string} step @param {string} message */
export function log(step, message) {
  process.stdout.write(`[${step}] ${message}\n`);
}

/** Prints a failure without a stack trace and exits: these are setup errors for humans. */
export function exitWith(/** @type {unknown} */ error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`\n✖ ${message}\n`);
  process.exit(1);
}
