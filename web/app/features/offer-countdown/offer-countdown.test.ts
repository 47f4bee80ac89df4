import { describe, expect, it } from 'vitest';
import { countdownState, formatRemaining } from './offer-countdown';

describe('offer countdown', () => {
  const deadline = Date.UTC(2026, 11, 24, 18, 0, 0);

  it('counts down to the configured deadline and turns urgent under 300 s', () => {
    expect(countdownState(deadline, deadline - 47 * 60_000)).toEqual({ counting: true, remaining: 2820, urgent: false });
    expect(countdownState(deadline, deadline - 300_000)).toMatchObject({ remaining: 300, urgent: false });
    expect(countdownState(deadline, deadline - 299_000)).toMatchObject({ remaining: 299, urgent: true });
    expect(countdownState(deadline, deadline - 1000)).toMatchObject({ counting: true, remaining: 1, urgent: true });
  });

  it('never restarts: at and after the deadline, or without one, there is nothing to count', () => {
    expect(countdownState(deadline, deadline)).toEqual({ counting: false, remaining: 0, urgent: false });
    expect(countdownState(deadline, deadline + 3_600_000)).toMatchObject({ counting: false });
    expect(countdownState(Number.NaN, deadline)).toMatchObject({ counting: false });
  });

  it('shows minutes and seconds, and hours or days when the deadline is far', () => {
    expect(formatRemaining(47 * 60)).toBe('47:00');
    expect(formatRemaining(59)).toBe('00:59');
    expect(formatRemaining(3 * 3600 + 5 * 60 + 9)).toBe('03:05:09');
    expect(formatRemaining(86_400 + 61)).toBe('1 giorno 00:01:01');
    expect(formatRemaining(3 * 86_400)).toBe('3 giorni 00:00:00');
  });
});
