import { describe, expect, it } from 'vitest';
import { guideSmsText } from './guide-sms-text';
import { gsm7Length, toGsm7Name } from './gsm7';

describe('GSM-7', () => {
  it('counts septets and spots characters that would force UCS-2', () => {
    expect(gsm7Length('Ciao Nicolò, è già qui')).toBe(22);
    expect(gsm7Length('prezzo 5€')).toBe(10);
    expect(gsm7Length('Ciao Zoë')).toBeNull();
    expect(gsm7Length('Ciao 🙂')).toBeNull();
  });

  it('keeps Italian letters, strips other accents and cuts long names at a word', () => {
    expect(toGsm7Name('Nicolò')).toBe('Nicolò');
    expect(toGsm7Name('Zoë')).toBe('Zoe');
    expect(toGsm7Name('Łukasz')).toBe('ukasz');
    expect(toGsm7Name("D'Angelo")).toBe("D'Angelo");
    expect(toGsm7Name('  Maria   Grazia ')).toBe('Maria Grazia');
    expect(toGsm7Name('Maria Alessandra Francesca')).toBe('Maria Alessandra');
    expect(toGsm7Name('王小明')).toBe('');
  });
});

describe('guide SMS text', () => {
  const link = 'https://www.guida-finanza-gratuita.it/g/AbCdEfGhIjKlMnOpQrStUv';

  it('fits one segment for ordinary names with a realistic domain', () => {
    for (const nome of ['Mario', 'Nicolò', 'Maria Grazia', 'Gianfrancesco', 'Zoë', 'Anne-Sophie']) {
      const text = guideSmsText({ nome, link, validDays: 30 });
      expect(gsm7Length(text), text).not.toBeNull();
      expect(gsm7Length(text)!, text).toBeLessThanOrEqual(160);
      expect(text).toContain(link);
    }
  });

  it('drops the greeting when the name cannot be written in GSM-7 or would not fit', () => {
    expect(guideSmsText({ nome: '王小明', link, validDays: 30 })).toBe(
      `Ecco la tua guida gratuita: ${link} (link valido 30 giorni)`,
    );
    const longLink = `https://${'a'.repeat(70)}.example/g/AbCdEfGhIjKlMnOpQrStUv`;
    const text = guideSmsText({ nome: 'Mario', link: longLink, validDays: 30 });
    expect(text.startsWith('Ecco')).toBe(true);
  });

  it('never carries visitor text other than a plain first name of at most 15 characters', () => {
    const withoutName = `Ecco la tua guida gratuita: ${link} (link valido 30 giorni)`;
    for (const nome of ['Vai su bit.ly/3xYzAb', 'Chiama 3471234567', 'Mario!', 'Massimilianoooooo', 'Łukasz']) {
      expect(guideSmsText({ nome, link, validDays: 30 }), nome).toBe(withoutName);
    }
    expect(guideSmsText({ nome: "D'Angelo", link, validDays: 30 })).toBe(
      `Ciao D'Angelo, ecco la tua guida gratuita: ${link} (link valido 30 giorni)`,
    );
  });
});
