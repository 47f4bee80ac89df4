/**
 * An admin password must resist guessing: at least 12 characters, three kinds of
 * characters, not the username, not a well-known password. Returns the problem in
 * Italian, or null when the password is acceptable.
 */
const COMMON = ['password', 'passw0rd', 'qwerty', '123456', 'admin', 'letmein', 'welcome', 'guida', 'finanza', 'iloveyou'];

export function passwordProblem(password: string, username: string): string | null {
  if (password.length < 12) return 'La password deve avere almeno 12 caratteri.';
  if (password.length > 200) return 'La password è troppo lunga (massimo 200 caratteri).';
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((kind) => kind.test(password)).length;
  if (kinds < 3) return 'La password deve contenere almeno tre tra: minuscole, maiuscole, cifre e simboli.';
  const lower = password.toLowerCase();
  if (username.length >= 3 && lower.includes(username.toLowerCase())) {
    return 'La password non deve contenere il nome utente.';
  }
  if (COMMON.some((word) => lower.includes(word))) return 'La password contiene una parola troppo comune.';
  if (/(.)\1{3,}/.test(password)) return 'La password non deve ripetere lo stesso carattere più volte di seguito.';
  return null;
}
