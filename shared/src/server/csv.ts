import { Readable } from 'node:stream';
import { OPERATOR_TIME_ZONE } from '../analytics-rules';

/**
 * CSV for spreadsheets used in Italy: `;` separates cells (Excel with Italian settings
 * expects it), a BOM makes Excel read UTF-8, and cells that a spreadsheet would run as a
 * formula are defused with a leading apostrophe (OWASP "CSV injection").
 */
export const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';
const FORMULA_START = /^[=+\-@\t\r]/;

/** Whether csvCell defuses the text (and so changes it): it starts as a spreadsheet formula would. */
export const startsAsFormula = (text: string) => FORMULA_START.test(text);

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (startsAsFormula(text)) text = `'${text}`;
  // A TAB too: spreadsheets offer it as a separator when they import, and would split the cell.
  return /[";\n\r,\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const operatorClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: OPERATOR_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * A time as the operator reads it: `YYYY-MM-DD HH:MM:SS` in Italian time (summer time
 * included), which spreadsheets take as a date and time and which still sorts as text.
 * The column's header says which time it is.
 */
export function operatorDateTime(value: Date | null): string | null {
  if (!value) return null;
  const part = Object.fromEntries(operatorClock.formatToParts(value).map(({ type, value: text }) => [type, text]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
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
