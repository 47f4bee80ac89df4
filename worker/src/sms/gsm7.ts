/**
 * GSM 03.38: an SMS of these characters holds 160 of them in one segment; a single
 * character outside it switches the whole message to UCS-2 and 70 per segment.
 */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENSION = '^{}\\[~]|€';

export const SINGLE_SEGMENT_LENGTH = 160;

/** Length in GSM-7 septets, or null when the text needs UCS-2. */
export function gsm7Length(text: string): number | null {
  let length = 0;
  for (const char of text) {
    if (BASIC.includes(char)) length += 1;
    else if (EXTENSION.includes(char)) length += 2;
    else return null;
  }
  return length;
}

/**
 * A first name reduced to GSM-7 letters: accents outside the alphabet lose their mark
 * (Nicolò keeps its ò, Zoë becomes Zoe), other characters are dropped, and the result is
 * cut at a word boundary to `max` characters.
 */
export function toGsm7Name(name: string, max = 20): string {
  let result = '';
  for (const char of name.normalize('NFC')) {
    if (BASIC.includes(char)) {
      result += char;
      continue;
    }
    const plain = char.normalize('NFD').replace(/\p{M}/gu, '');
    if (plain && [...plain].every((c) => BASIC.includes(c))) result += plain;
  }
  result = result.replace(/[\n\r]/g, ' ').replace(/\s+/g, ' ').trim();
  if (result.length <= max) return result;
  const cut = result.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > 1 ? cut.slice(0, lastSpace) : cut).trim();
}
