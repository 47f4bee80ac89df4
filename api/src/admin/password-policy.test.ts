import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy';

describe('admin password policy', () => {
  it('accepts a long password with three kinds of characters', () => {
    expect(passwordProblem('Corretta!Cavallo42', 'operatore')).toBeNull();
  });

  it('explains in Italian what is wrong with a weak one', () => {
    expect(passwordProblem('Breve!1a', 'operatore')).toBe('La password deve avere almeno 12 caratteri.');
    expect(passwordProblem('tuttominuscolo', 'operatore')).toMatch(/almeno tre tra/);
    expect(passwordProblem('Operatore!2026x', 'operatore')).toBe('La password non deve contenere il nome utente.');
    expect(passwordProblem('MiaPassword!2026', 'operatore')).toBe('La password contiene una parola troppo comune.');
    expect(passwordProblem('Aaaaa!Bcdefg12', 'operatore')).toMatch(/stesso carattere/);
  });
});
