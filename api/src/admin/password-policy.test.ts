import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy';

const breachedList = JSON.parse(readFileSync(new URL('./breached-passwords.json', import.meta.url), 'utf8')) as string[];

describe('admin password policy (ASVS 5.0)', () => {
  it('accepts a long passphrase of lower-case words without digits or symbols: no composition rules', () => {
    expect(passwordProblem('cavallo batteria graffetta corretta', 'operatrice')).toBeNull();
    expect(passwordProblem('tramontodisettembre', 'operatrice')).toBeNull();
    expect(passwordProblem('Corretta!Cavallo42', 'operatrice')).toBeNull();
  });

  it('wants at least 12 characters, and takes passphrases up to 128', () => {
    expect(passwordProblem('breve!1aB', 'operatrice')).toBe('La password deve avere almeno 12 caratteri.');
    expect(passwordProblem('x'.repeat(11) + 'é', 'operatrice')).toBeNull();
    expect(passwordProblem('una frase lunga '.repeat(8), 'operatrice')).toBeNull();
    expect(passwordProblem('a'.repeat(PASSWORD_MAX_LENGTH + 1), 'operatrice')).toBe('La password è troppo lunga (massimo 128 caratteri).');
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(PASSWORD_MAX_LENGTH).toBeGreaterThanOrEqual(64);
  });

  it('refuses a password from the breached list, whatever its case', () => {
    // G00dPa$$w0rd passed the old rules (three kinds of characters, no "common word").
    for (const breached of ['1qaz2wsx3edc', 'Qwerty123456', 'PASSWORDPASSWORD', 'iloveyou1234', '111111111111', 'G00dPa$$w0rd']) {
      expect(passwordProblem(breached, 'operatrice'), breached).toMatch(/elenchi di password rubate/);
    }
  });

  it('refuses the username and the product’s own words dressed up with digits and symbols', () => {
    expect(passwordProblem('Operatrice!2026x', 'operatrice')).toBe('La password non deve contenere il nome utente.');
    expect(passwordProblem('Guida-Finanza-2026!', 'operatrice')).toMatch(/troppo facile/);
    expect(passwordProblem('Admin!2026#2026', 'operatrice')).toMatch(/troppo facile/);
    expect(passwordProblem('2026-12-31!!2026', 'operatrice')).toMatch(/troppo facile/);
  });

  it('ships a compact list: 20,000 distinct lower-case breached passwords, each one the length rule would let through', () => {
    expect(breachedList).toHaveLength(20_000);
    expect(new Set(breachedList).size).toBe(20_000);
    for (const password of breachedList) {
      expect(password).toBe(password.toLowerCase());
      expect([...password].length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
      expect([...password].length).toBeLessThanOrEqual(PASSWORD_MAX_LENGTH);
    }
  });
});
