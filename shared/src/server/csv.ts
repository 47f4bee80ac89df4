import { Readable } from 'node:stream';

/**
 * CSV for spreadsheets used in Italy: `;` separates cells (Excel with Italian settings
 * expects it), a BOM makes Excel read UTF-8, and cells that a spreadsheet would run as a
 * formula are defused with a leading apostrophe (OWASP "CSV injection").
 */
export const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[";\n\r,]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]) => `${cells.map(csvCell).join(SEPARATOR)}\r\n`;

/** A whole table as one string: header, then one line per row. */
export function csvTable(header: readonly string[], rows: readonly (readonly unknown[])[]) {
  return CSV_BOM + csvLine(header) + rows.map(csvLine).join('');
}

/**
 * A CSV that is read page by page (`nextPage` returns [] at the end), so a large export
 * never sits in memory and the first bytes leave at once.
 */
export function csvStream<T>(header: readonly string[], nextPage: () => Promise<T[]>, toCells: (row: T) => unknown[]) {
  let started = false;
  return new Readable({
    async read() {
      try {
        if (!started) {
          started = true;
          this.push(CSV_BOM + csvLine(header));
          return;
        }
        const rows = await nextPage();
        if (rows.length === 0) {
          this.push(null);
          return;
        }
        this.push(rows.map((row) => csvLine(toCells(row))).join(''));
      } catch (error) {
        this.destroy(error as Error);
      }
    },
  });
}
