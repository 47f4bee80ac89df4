import { describe, expect, it } from 'vitest';
import { hasControlCharacter, hasLoneSurrogate, safeText } from './text-rules';

describe('the text rule', () => {
  it('refuses NUL and the other C0 control characters', () => {
    for (const code of [0, 1, 8, 11, 12, 14, 27, 31, 127]) {
      expect(hasControlCharacter(`a${String.fromCharCode(code)}b`), `U+${code.toString(16)}`).toBe(true);
    }
  });

  it('keeps tab, line breaks and any printable unicode', () => {
    expect(hasControlCharacter('riga 1\r\nriga 2\tfine')).toBe(false);
    expect(hasControlCharacter("D'Angelo-Müller 🇮🇹 ß")).toBe(false);
  });

  it('refuses lone surrogates, which PostgreSQL refuses in jsonb', () => {
    expect(hasLoneSurrogate('\ud800')).toBe(true);
    expect(hasLoneSurrogate('a\udfffb')).toBe(true);
    expect(hasLoneSurrogate('😀 e\u0301')).toBe(false);
    expect(safeText().safeParse('\udfff\ud800').success).toBe(false);
  });

  it('answers with the Italian message', () => {
    const result = safeText('Testo non valido').safeParse('Mario\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Il testo contiene caratteri non ammessi.');
    expect(safeText('Testo non valido').safeParse(42).error?.issues[0]?.message).toBe('Testo non valido');
  });
});
