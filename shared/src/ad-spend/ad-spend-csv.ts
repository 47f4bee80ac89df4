import { isCampaignValue } from '../attribution-rules';

/**
 * The ad spend CSV an admin imports (decision 060, columns in docs/admin.md): what Italian
 * Excel and the ad platforms' exports write. UTF-8 with or without a BOM; `;` or `,`
 * between cells, whichever the header uses; a header row naming the columns in Italian or
 * as the UTM fields, in any case and order (other columns are ignored); dates as
 * GG/MM/AAAA or AAAA-MM-GG; amounts as 1.234,56 or 1234.56, `€` allowed; the currency
 * optional (EUR). Every problem is reported with its line, in Italian; a file with any
 * problem imports nothing.
 */

/** The largest file accepted (the API answers 413 beyond it). */
export const AD_SPEND_MAX_BYTES = 1024 * 1024;
/** The most spend rows one file may hold. */
export const AD_SPEND_MAX_ROWS = 10_000;
/** Line errors listed in one answer; the rest are counted. */
export const AD_SPEND_ERRORS_LISTED = 20;
export const DEFAULT_CURRENCY = 'EUR';

export const AD_SPEND_COLUMNS = ['data', 'utm_source', 'utm_campaign', 'importo', 'valuta'] as const;
type Column = (typeof AD_SPEND_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['data', 'utm_source', 'utm_campaign', 'importo'];

/** Header names each column is known by (compared in lower case, spaces and dashes as `_`). */
const COLUMN_ALIASES: Record<Column, readonly string[]> = {
  data: ['data', 'giorno', 'day', 'date'],
  utm_source: ['utm_source', 'sorgente', 'fonte', 'source'],
  utm_campaign: ['utm_campaign', 'campagna', 'campaign'],
  importo: ['importo', 'spesa', 'costo', 'amount', 'spend', 'cost'],
  valuta: ['valuta', 'divisa', 'currency'],
};
const COLUMN_OF = new Map(
  Object.entries(COLUMN_ALIASES).flatMap(([column, aliases]) => aliases.map((alias) => [alias, column as Column])),
);

export const adSpendCsvMessages = {
  tooLarge: `Il file è troppo grande: al massimo 1 MB e ${AD_SPEND_MAX_ROWS.toLocaleString('it-IT')} righe. Dividilo in più file.`,
  tooManyRows: `Il file ha più di ${AD_SPEND_MAX_ROWS.toLocaleString('it-IT')} righe di spesa: dividilo in più file.`,
  notUtf8: 'Il file non è in UTF-8: in Excel scegli «Salva con nome» e il formato «CSV UTF-8 (delimitato da virgole)».',
  empty: 'Il file è vuoto: servono la riga di intestazione e almeno una riga di spesa.',
  noRows: 'Il file non contiene righe di spesa dopo l’intestazione.',
  invalidFile: (count: number) =>
    count === 1
      ? 'Il file contiene un errore: non è stato importato nulla. Correggilo e carica di nuovo il file intero.'
      : `Il file contiene ${count.toLocaleString('it-IT')} errori: non è stato importato nulla. Correggili e carica di nuovo il file intero.`,
  moreErrors: (count: number) => `… e altri ${count.toLocaleString('it-IT')} errori.`,
  missingColumns: (columns: string[]) =>
    `mancano le colonne ${columns.map((column) => `«${column}»`).join(', ')} (intestazione attesa: ${AD_SPEND_COLUMNS.join(';')}; «valuta» è facoltativa)`,
  repeatedColumn: (column: string) => `la colonna «${column}» compare più di una volta`,
  unclosedQuote: 'virgolette aperte e mai chiuse',
  cellCount: (found: number, expected: number, separator: string) =>
    `${found} colonne invece di ${expected}` +
    (separator === ',' ? ': con il separatore «,» un importo con la virgola va tra virgolette ("12,50"), oppure usa «;»' : ''),
  missing: (column: string) => `${column} mancante`,
  invalidDay: (value: string) => `data non valida («${value}»): usa GG/MM/AAAA o AAAA-MM-GG`,
  invalidAmount: (value: string) => `importo non valido («${value}»)`,
  negativeAmount: (value: string) => `importo negativo («${value}»)`,
  ambiguousAmount: (value: string) => {
    const [integer = '', fraction = ''] = value.replace(/[^\d.]/g, '').split('.');
    return `importo ambiguo («${value}»): scrivi ${integer}.${fraction},00 se sono migliaia oppure ${integer},${fraction} se sono decimali`;
  },
  invalidCampaignValue: (column: string, value: string) => `${column} non valido («${value}»)`,
  invalidCurrency: (value: string) => `valuta non valida («${value}»): usa il codice ISO di 3 lettere, per esempio EUR`,
  euroWithOtherCurrency: (currency: string) => `l’importo è in € ma la valuta è ${currency}`,
  repeatedRow: (line: number) => `stessa data, utm_source e utm_campaign della riga ${line}`,
  atLine: (line: number, problem: string) => `Riga ${line}: ${problem}`,
} as const;

export interface AdSpendRow {
  /** The file's line the row starts on (the header is line 1). */
  line: number;
  /** YYYY-MM-DD. */
  day: string;
  utmSource: string;
  /** '' for spend of the whole source. */
  utmCampaign: string;
  /** A decimal with two digits after the point ("1234.56"), never negative. */
  amount: string;
  /** ISO 4217, capitals. */
  currency: string;
}

export interface AdSpendLineError {
  line: number;
  message: string;
}

export type AdSpendParse =
  | { ok: true; rows: AdSpendRow[] }
  | { ok: false; message: string; errors: AdSpendLineError[]; moreErrors: number };

/** What a bad value looks like in a message: short, on one line. */
function shown(value: string) {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}

interface CsvRecord {
  line: number;
  cells: string[];
  unclosedQuote: boolean;
}

/** RFC 4180 records: quoted cells may hold the separator, quotes ("") and line breaks. */
function* records(text: string, separator: string): Generator<CsvRecord> {
  let line = 1;
  let index = 0;
  while (index < text.length) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    let ended = false;
    while (index < text.length && !ended) {
      const char = text[index]!;
      if (quoted) {
        if (char === '"' && text[index + 1] === '"') {
          cell += '"';
          index += 2;
          continue;
        }
        if (char === '"') quoted = false;
        else {
          if (char === '\n' || (char === '\r' && text[index + 1] !== '\n')) line += 1;
          cell += char;
        }
        index += 1;
        continue;
      }
      if (char === '"' && cell.trim() === '') {
        quoted = true;
        cell = '';
      } else if (char === separator) {
        cells.push(cell);
        cell = '';
      } else if (char === '\r' || char === '\n') {
        index += char === '\r' && text[index + 1] === '\n' ? 1 : 0;
        line += 1;
        ended = true;
      } else cell += char;
      index += 1;
    }
    cells.push(cell);
    yield { line: start, cells, unclosedQuote: quoted };
  }
}

/** The separator the header uses: `;` (Italian Excel) unless it has none and has commas. */
function separatorOf(text: string) {
  const header = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  return !header.includes(';') && header.includes(',') ? ',' : ';';
}

const headerName = (cell: string) => cell.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** A real calendar day from GG/MM/AAAA (G/M/AAAA too) or AAAA-MM-GG, else null. */
export function parseSpendDay(raw: string): string | null {
  const value = raw.trim();
  const italian = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = italian
    ? [Number(italian[3]), Number(italian[2]), Number(italian[1])]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : [0, 0, 0];
  if (year < 2000 || year > 2099) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** The largest amount numeric(12,2) holds, in cents. */
const MAX_CENTS = 10n ** 12n - 1n;
const GROUPED = (mark: string) => new RegExp(`^\\d{1,3}(\\${mark}\\d{3})+$`);

/**
 * An amount as "1234.56" (rounded to the cent), or why not. Italian `1.234,56` and
 * `1234,56`, plain `1234.56`, English `1,234.56`, Italian thousands `1.234.567`. A lone
 * `.` followed by three digits (`1.234`, `0.123`) is ambiguous (Italian thousands, or a
 * plain decimal?) and refused rather than guessed: the operator writes `1.234,00` or
 * `1,234`. `€` and spaces anywhere are dropped.
 */
export function parseSpendAmount(raw: string): { amount: string; euro: boolean } | { problem: 'invalid' | 'negative' | 'ambiguous' } {
  const euro = raw.includes('€');
  let value = raw.replace(/[€\s\u00a0\u202f]/g, '');
  const negative = /^-|-$/.test(value);
  value = value.replace(/^-|-$/g, '');
  if (!/^[\d.,]+$/.test(value) || !/\d/.test(value)) return { problem: 'invalid' };
  const lastComma = value.lastIndexOf(',');
  const lastDot = value.lastIndexOf('.');
  let integer: string;
  let fraction: string;
  if (lastComma >= 0 && lastDot >= 0) {
    // Both marks: the last one is the decimal mark, the other groups thousands.
    const [decimal, group] = lastComma > lastDot ? [',', '.'] : ['.', ','];
    [integer = '', fraction = ''] = value.split(decimal);
    if (value.split(decimal).length !== 2 || !GROUPED(group).test(integer) || fraction === '') return { problem: 'invalid' };
    integer = integer.split(group).join('');
  } else if (lastComma >= 0) {
    const parts = value.split(',');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return { problem: 'invalid' };
    [integer = '', fraction = ''] = parts;
  } else if (lastDot >= 0) {
    if (/^\d+\.\d{3}$/.test(value)) return { problem: 'ambiguous' };
    if (GROUPED('.').test(value)) [integer, fraction] = [value.split('.').join(''), ''];
    else {
      const parts = value.split('.');
      if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return { problem: 'invalid' };
      [integer = '', fraction = ''] = parts;
    }
  } else [integer, fraction] = [value, ''];
  if (negative) return { problem: 'negative' };
  const padded = `${fraction}000`;
  let cents = BigInt(integer) * 100n + BigInt(padded.slice(0, 2));
  if (Number(padded[2]) >= 5) cents += 1n;
  if (cents > MAX_CENTS) return { problem: 'invalid' };
  const text = cents.toString().padStart(3, '0');
  return { amount: `${text.slice(0, -2)}.${text.slice(-2)}`, euro };
}

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code ("eur" and "€" as EUR), or null. */
export function parseSpendCurrency(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return DEFAULT_CURRENCY;
  if (value === '€') return 'EUR';
  const code = value.toUpperCase();
  return /^[A-Z]{3}$/.test(code) && KNOWN_CURRENCIES.has(code) ? code : null;
}

/** A utm value as leads keep it (spaces collapsed), or null when it could not be one. */
function campaignCell(raw: string) {
  const value = raw.replace(/\s+/g, ' ').trim();
  return value === '' || isCampaignValue(value) ? value : null;
}

function decode(input: Uint8Array | string): string | null {
  if (typeof input === 'string') return input;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return null;
  }
}

/** Reads a whole file: every row, or every problem (up to AD_SPEND_ERRORS_LISTED, with their lines). */
export function parseAdSpendCsv(input: Uint8Array | string): AdSpendParse {
  const failed = (message: string, errors: AdSpendLineError[] = [], moreErrors = 0): AdSpendParse => ({
    ok: false,
    message,
    errors,
    moreErrors,
  });
  const decoded = decode(input);
  if (decoded === null) return failed(adSpendCsvMessages.notUtf8);
  const text = decoded.replace(/^\uFEFF/, '');
  if (text.trim() === '') return failed(adSpendCsvMessages.empty);

  const separator = separatorOf(text);
  const all = records(text, separator);
  const header = all.next().value as CsvRecord;
  const at = (line: number, problem: string) => ({ line, message: adSpendCsvMessages.atLine(line, problem) });

  const columns = header.cells.map((cell) => COLUMN_OF.get(headerName(cell)) ?? null);
  const repeated = AD_SPEND_COLUMNS.find((column) => columns.filter((found) => found === column).length > 1);
  const missing = REQUIRED.filter((column) => !columns.includes(column));
  if (repeated || missing.length > 0 || header.unclosedQuote) {
    const problem = header.unclosedQuote
      ? adSpendCsvMessages.unclosedQuote
      : repeated
        ? adSpendCsvMessages.repeatedColumn(repeated)
        : adSpendCsvMessages.missingColumns(missing);
    const error = at(header.line, problem);
    return failed(adSpendCsvMessages.invalidFile(1), [error]);
  }

  const rows: AdSpendRow[] = [];
  const errors: AdSpendLineError[] = [];
  let errorCount = 0;
  const firstLineOf = new Map<string, number>();
  for (const record of all) {
    if (record.cells.every((cell) => cell.trim() === '')) continue;
    if (rows.length + errorCount >= AD_SPEND_MAX_ROWS) return failed(adSpendCsvMessages.tooManyRows);
    const problems: string[] = [];
    if (record.unclosedQuote) problems.push(adSpendCsvMessages.unclosedQuote);
    else if (record.cells.length !== header.cells.length) {
      problems.push(adSpendCsvMessages.cellCount(record.cells.length, header.cells.length, separator));
    }
    const cell = (column: Column) => {
      const index = columns.indexOf(column);
      return index < 0 ? '' : (record.cells[index] ?? '');
    };
    let row: AdSpendRow | null = null;
    if (problems.length === 0) {
      const day = parseSpendDay(cell('data'));
      if (cell('data').trim() === '') problems.push(adSpendCsvMessages.missing('data'));
      else if (!day) problems.push(adSpendCsvMessages.invalidDay(shown(cell('data'))));
      const utmSource = campaignCell(cell('utm_source'));
      if (utmSource === '') problems.push(adSpendCsvMessages.missing('utm_source'));
      else if (utmSource === null) problems.push(adSpendCsvMessages.invalidCampaignValue('utm_source', shown(cell('utm_source'))));
      const utmCampaign = campaignCell(cell('utm_campaign'));
      if (utmCampaign === null) problems.push(adSpendCsvMessages.invalidCampaignValue('utm_campaign', shown(cell('utm_campaign'))));
      const amount = parseSpendAmount(cell('importo'));
      if (cell('importo').trim() === '') problems.push(adSpendCsvMessages.missing('importo'));
      else if ('problem' in amount) {
        const messageOf = {
          negative: adSpendCsvMessages.negativeAmount,
          ambiguous: adSpendCsvMessages.ambiguousAmount,
          invalid: adSpendCsvMessages.invalidAmount,
        }[amount.problem];
        problems.push(messageOf(shown(cell('importo'))));
      }
      const currency = parseSpendCurrency(cell('valuta'));
      if (currency === null) problems.push(adSpendCsvMessages.invalidCurrency(shown(cell('valuta'))));
      else if ('euro' in amount && amount.euro && currency !== 'EUR') problems.push(adSpendCsvMessages.euroWithOtherCurrency(currency));
      if (problems.length === 0 && day && utmSource && utmCampaign !== null && 'amount' in amount && currency) {
        const key = JSON.stringify([day, utmSource, utmCampaign]);
        const first = firstLineOf.get(key);
        if (first !== undefined) problems.push(adSpendCsvMessages.repeatedRow(first));
        else {
          firstLineOf.set(key, record.line);
          row = { line: record.line, day, utmSource, utmCampaign, amount: amount.amount, currency };
        }
      }
    }
    if (row) rows.push(row);
    else {
      errorCount += 1;
      if (errors.length < AD_SPEND_ERRORS_LISTED) errors.push(at(record.line, problems.join('; ')));
    }
  }
  if (errorCount > 0) return failed(adSpendCsvMessages.invalidFile(errorCount), errors, errorCount - errors.length);
  if (rows.length === 0) return failed(adSpendCsvMessages.noRows);
  return { ok: true, rows };
}
