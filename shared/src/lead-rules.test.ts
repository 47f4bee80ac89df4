import { describe, expect, it } from 'vitest';
import { daysLeft, thankYouPathFor } from './lead-rules';

describe('thank-you page rule of the spec', () => {
  it.each([
    ['+393471234567', '/', '/grazie-italia'],
    ['+393471234567', null, '/grazie-italia'],
    ['+41791234567', '/', '/grazie-svizzera'],
    ['+41 79 123 45 67', '/educazione-investimenti', '/grazie-svizzera'],
    ['+393471234567', '/oro-svizzera', '/grazie-svizzera?prefisso=39'],
    ['+393471234567', '/Swiss-Landing', '/grazie-svizzera?prefisso=39'],
    ['+41791234567', '/trading-old', '/grazie-italia?prefisso=41'],
    ['+393471234567', '/trading-old', '/grazie-italia'],
    ['+41791234567', '/oro-svizzera', '/grazie-svizzera'],
  ])('%s on %s goes to %s', (telefono, path, expected) => {
    expect(thankYouPathFor(telefono, path)).toBe(expected);
  });
});

describe('daysLeft', () => {
  it('rounds to whole days and never says 0', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(daysLeft(new Date(now + 30 * 86_400_000 - 1000), now)).toBe(30);
    expect(daysLeft(new Date(now + 3600_000), now)).toBe(1);
  });
});
