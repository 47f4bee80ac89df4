import breachedList from './breached-passwords.json';

/**
 * An admin password, per OWASP ASVS 5.0 (6.2.1–6.2.12): long enough (12 characters at
 * least, up to 128 so passphrases fit), no composition rules (no "a digit and a symbol":
 * they make passwords harder to remember, not to guess), not a password seen in breaches
 * (breached-passwords.json, scripts/generate-breached-passwords.mjs), not built on the
 * username or the product's own words. Returns the problem in Italian, or null.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** Words of this product and of admin accounts: what someone guessing this site's admin tries first (ASVS 6.2.11). */
const CONTEXT_WORDS = ['guida', 'finanza', 'guidafinanza', 'admin', 'amministratore', 'operatore', 'password'];

let breached: Set<string> | undefined;
/** Loaded on first use: only admin:create checks passwords. */
const isBreached = (password: string) => (breached ??= new Set(breachedList)).has(password.toLowerCase());

export function passwordProblem(password: string, username: string): string | null {
  // Characters as a person counts them (an emoji is one), not UTF-16 units.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `La password deve avere almeno ${PASSWORD_MIN_LENGTH} caratteri.`;
  if (length > PASSWORD_MAX_LENGTH) return `La password è troppo lunga (massimo ${PASSWORD_MAX_LENGTH} caratteri).`;
  const lower = password.toLowerCase();
  if (username.length >= 3 && lower.includes(username.toLowerCase())) {
    return 'La password non deve contenere il nome utente.';
  }
  if (isBreached(password)) {
    return 'Questa password compare negli elenchi di password rubate e diffuse: scegline un’altra (una frase di più parole va benissimo).';
  }
  // The letters alone: "Guida-Finanza-2026!" is the product's name with a year and a symbol.
  const letters = lower.replace(/[^\p{L}]/gu, '');
  if (letters === '' || CONTEXT_WORDS.some((word) => letters === word || letters === word.repeat(2))) {
    return 'La password è troppo facile da indovinare: evita il nome del sito, «admin» o solo cifre e simboli.';
  }
  return null;
}
