import { describe, expect, it } from 'vitest';
import {
  AD_SPEND_ERRORS_LISTED,
  AD_SPEND_MAX_ROWS,
  parseAdSpendCsv,
  parseSpendAmount,
  parseSpendCurrency,
  parseSpendDay,
} from './ad-spend-csv';

const rowsOf = (input: string | Uint8Array) => {
  const parsed = parseAdSpendCsv(input);
  if (!parsed.ok) throw new Error(`expected rows, got: ${parsed.message} ${JSON.stringify(parsed.errors)}`);
  return parsed.rows;
};
const errorsOf = (input: string | Uint8Array) => {
  const parsed = parseAdSpendCsv(input);
  if (parsed.ok) throw new Error('expected errors');
  return parsed;
};

describe('ad spend CSV', () => {
  it('reads what Italian Excel writes: BOM, `;`, Italian headers in any case, dates and amounts', () => {
    const file = '\uFEFFData;Sorgente;Campagna;Importo;Valuta\r\n05/11/2026;google;autunno;1.234,56;EUR\r\n6/11/2026;meta;autunno;€ 12,50;\r\n';
    expect(rowsOf(file)).toEqual([
      { line: 2, day: '2026-11-05', utmSource: 'google', utmCampaign: 'autunno', amount: '1234.56', currency: 'EUR' },
      { line: 3, day: '2026-11-06', utmSource: 'meta', utmCampaign: 'autunno', amount: '12.50', currency: 'EUR' },
    ]);
  });

  it('reads the plain form: `,`, ISO dates, dot decimals, utm headers, no currency column, extra columns ignored', () => {
    const file = 'utm_campaign,Clic,utm_source,data,importo\n"black friday, 2026",120,google,2026-11-27,1234.5\nbrand,3,bing,2026-11-28,7\n';
    expect(rowsOf(file)).toEqual([
      { line: 2, day: '2026-11-27', utmSource: 'google', utmCampaign: 'black friday, 2026', amount: '1234.50', currency: 'EUR' },
      { line: 3, day: '2026-11-28', utmSource: 'bing', utmCampaign: 'brand', amount: '7.00', currency: 'EUR' },
    ]);
  });

  it('takes bytes without a BOM, quoted cells with line breaks, blank lines, and an empty campaign (the whole source)', () => {
    const file = new TextEncoder().encode('data;utm_source;utm_campaign;importo\n\n01/12/2026;newsletter;;"1,5"\n02/12/2026;"meta";"riga\nlunga";2\n03/12/2026;meta;x;3\n');
    const rows = rowsOf(file);
    expect(rows.map((row) => [row.line, row.utmCampaign, row.amount])).toEqual([
      [3, '', '1.50'],
      [4, 'riga lunga', '2.00'],
      // The quoted line break took line 5: the next row starts on line 6.
      [6, 'x', '3.00'],
    ]);
  });

  it('names the line of each bad row, in Italian, with the value it could not read', () => {
    const file = [
      'data;utm_source;utm_campaign;importo;valuta',
      '05/11/2026;google;autunno;10,00;EUR',
      '31/02/2026;google;autunno;10,00;EUR',
      '06/11/2026;;autunno;10,00;EUR',
      '07/11/2026;google;autunno;-5,00;EUR',
      '08/11/2026;google;autunno;12,3,4;EUR',
      '09/11/2026;google;autunno;10;EURO',
      '10/11/2026;google;autunno;€ 10;USD',
      '05/11/2026;google;autunno;11;EUR',
      '11/11/2026;google;autunno',
      '12/11/2026;goo<gle;autunno;1;EUR',
    ].join('\n');
    const parsed = errorsOf(file);
    expect(parsed.message).toBe('Il file contiene 9 errori: non è stato importato nulla. Correggili e carica di nuovo il file intero.');
    expect(parsed.errors).toEqual([
      { line: 3, message: 'Riga 3: data non valida («31/02/2026»): usa GG/MM/AAAA o AAAA-MM-GG' },
      { line: 4, message: 'Riga 4: utm_source mancante' },
      { line: 5, message: 'Riga 5: importo negativo («-5,00»)' },
      { line: 6, message: 'Riga 6: importo non valido («12,3,4»)' },
      { line: 7, message: 'Riga 7: valuta non valida («EURO»): usa il codice ISO di 3 lettere, per esempio EUR' },
      { line: 8, message: 'Riga 8: l’importo è in € ma la valuta è USD' },
      { line: 9, message: 'Riga 9: stessa data, utm_source e utm_campaign della riga 2' },
      { line: 10, message: 'Riga 10: 3 colonne invece di 5' },
      { line: 11, message: 'Riga 11: utm_source non valido («goo<gle»)' },
    ]);
    expect(parsed.moreErrors).toBe(0);
  });

  it('explains a decimal comma split by the `,` separator', () => {
    const parsed = errorsOf('data,utm_source,utm_campaign,importo\n2026-11-05,google,autunno,12,50\n');
    expect(parsed.errors[0]!.message).toMatch(/^Riga 2: 5 colonne invece di 4: con il separatore «,» un importo con la virgola va tra virgolette/);
  });

  it('refuses a header without the columns it needs, and files without rows', () => {
    expect(errorsOf('giorno;fonte;spesa\n05/11/2026;google;1\n').errors).toEqual([
      {
        line: 1,
        message:
          'Riga 1: mancano le colonne «utm_campaign» (intestazione attesa: data;utm_source;utm_campaign;importo;valuta; «valuta» è facoltativa)',
      },
    ]);
    expect(errorsOf('data;Data;utm_source;utm_campaign;importo\n').errors[0]!.message).toBe('Riga 1: la colonna «data» compare più di una volta');
    expect(errorsOf('data;utm_source;utm_campaign;importo\r\n\r\n').message).toBe('Il file non contiene righe di spesa dopo l’intestazione.');
    expect(errorsOf('\uFEFF  \n').message).toMatch(/^Il file è vuoto/);
  });

  it('refuses a file that is not UTF-8 (Excel’s “CSV” in Windows-1252)', () => {
    const latin1 = Uint8Array.from([...'data;utm_source;utm_campaign;importo\n05/11/2026;google;'].map((c) => c.charCodeAt(0)).concat([0xe8, 0x3b, 0x31, 0x0a]));
    expect(errorsOf(latin1).message).toMatch(/^Il file non è in UTF-8/);
  });

  it(`lists at most ${AD_SPEND_ERRORS_LISTED} errors and counts the rest, and refuses more than ${AD_SPEND_MAX_ROWS} rows`, () => {
    const bad = Array.from({ length: 30 }, (_, index) => `${index + 1}/11/2026;google;x;abc`);
    const parsed = errorsOf(['data;utm_source;utm_campaign;importo', ...bad].join('\n'));
    expect(parsed.errors).toHaveLength(AD_SPEND_ERRORS_LISTED);
    expect(parsed.moreErrors).toBe(30 - AD_SPEND_ERRORS_LISTED);

    const many = Array.from({ length: AD_SPEND_MAX_ROWS + 1 }, (_, index) => `2026-01-01;google;c${index};1`);
    expect(errorsOf(['data;utm_source;utm_campaign;importo', ...many].join('\n')).message).toMatch(/^Il file ha più di 10\.000 righe/);
  });
});

describe('ad spend values', () => {
  it.each([
    ['1.234,56', '1234.56'],
    ['1234,56', '1234.56'],
    ['1234.56', '1234.56'],
    ['1,234.56', '1234.56'],
    ['1.234,00', '1234.00'],
    ['1.234.567', '1234567.00'],
    ['0.12', '0.12'],
    ['123.4567', '123.46'],
    ['1.234.567,8', '1234567.80'],
    ['12,345', '12.35'],
    ['0,004', '0.00'],
    ['€1 000,00', '1000.00'],
    ['0', '0.00'],
  ])('reads the amount %s as %s', (raw, amount) => {
    expect(parseSpendAmount(raw)).toMatchObject({ amount });
  });

  it.each(['12,3,4', '1.23.4', 'abc', '', ',5', '12..5', '1,2.3.4', '99999999999'])('refuses the amount «%s»', (raw) => {
    expect(parseSpendAmount(raw)).toEqual({ problem: 'invalid' });
  });

  // Italian thousands or a plain decimal? 1,000× apart: refused, never guessed.
  it.each(['0.123', '123.456', '1.234', '€ 1.234', '-1.234'])('refuses the ambiguous amount «%s»', (raw) => {
    expect(parseSpendAmount(raw)).toEqual({ problem: 'ambiguous' });
  });

  it('says on its line how to write an ambiguous amount', () => {
    const parsed = errorsOf('data;utm_source;utm_campaign;importo\n05/11/2026;google;a;1.234,50\n06/11/2026;google;a;0,5\n07/11/2026;google;a;12\n08/11/2026;google;a;123.456\n');
    expect(parsed.errors).toEqual([
      { line: 5, message: 'Riga 5: importo ambiguo («123.456»): scrivi 123.456,00 se sono migliaia oppure 123,456 se sono decimali' },
    ]);
  });

  it('reads days and currencies', () => {
    expect(parseSpendDay('29/02/2028')).toBe('2028-02-29');
    expect(parseSpendDay('2026-11-05')).toBe('2026-11-05');
    expect(parseSpendDay('29/02/2027')).toBeNull();
    expect(parseSpendDay('11/5/26')).toBeNull();
    expect(parseSpendDay('2026-13-01')).toBeNull();
    expect(parseSpendCurrency('')).toBe('EUR');
    expect(parseSpendCurrency('chf')).toBe('CHF');
    expect(parseSpendCurrency('€')).toBe('EUR');
    expect(parseSpendCurrency('XYZ')).toBeNull();
  });
});
