import { describe, expect, it } from 'vitest';
import { csvCell } from './csv';

describe('a CSV cell', () => {
  it('is quoted when it holds a separator a spreadsheet could split on: ; , a quote, a line break or a TAB', () => {
    expect(csvCell('Rossi; Mario')).toBe('"Rossi; Mario"');
    expect(csvCell('Via Roma, 1')).toBe('"Via Roma, 1"');
    expect(csvCell('detto "Mario"')).toBe('"detto ""Mario"""');
    expect(csvCell('riga\naltra')).toBe('"riga\naltra"');
    expect(csvCell('Mario\tRossi')).toBe('"Mario\tRossi"');
    expect(csvCell('Mario Rossi')).toBe('Mario Rossi');
  });

  it('defuses what a spreadsheet would run as a formula, a leading TAB included', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1+1')).toBe('"\'\t=1+1"');
    expect(csvCell(null)).toBe('');
  });
});
