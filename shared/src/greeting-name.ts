/**
 * The only visitor text that may reach an SMS or an email: a first name to greet. A name
 * is letters of any alphabet (accents included), spaces, apostrophes and hyphens, at most
 * GREETING_NAME_MAX_LENGTH characters; anything else (a link, digits, punctuation, a long
 * text) is not greeted at all, so an attacker cannot make our sender carry their words.
 */
export const GREETING_NAME_MAX_LENGTH = 15;

/** Words of letters (with their combining marks), joined by one space, apostrophe or hyphen. */
const NAME = /^[\p{L}\p{M}]+(?:(?: |['’-]) ?[\p{L}\p{M}]+)*$/u;

/** The name to greet the visitor with, or null when `nome` is not a plain name. */
export function greetingName(nome: string | null | undefined): string | null {
  if (!nome) return null;
  const name = nome.normalize('NFC').trim().replace(/ {2,}/g, ' ');
  if ([...name].length > GREETING_NAME_MAX_LENGTH) return null;
  return NAME.test(name) ? name : null;
}
