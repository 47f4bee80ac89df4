import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_DELAY_MS, MAX_GAP_MS, MIN_GAP_MS, VISIBLE_MS, nextGapMs, startActivityCycle } from './activity-cycle';

describe('recent-activity popup timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A cycle over `entries` that shows each once, as the popup does; its log of what it did. */
  function cycleOver(entries: string[]) {
    const log: string[] = [];
    const seen = new Set<string>();
    const cycle = startActivityCycle({
      nextEntry: () => entries.find((entry) => !seen.has(entry)),
      show: (entry) => {
        seen.add(entry);
        log.push(`show ${entry} at ${Date.now()}`);
      },
      hide: () => log.push(`hide at ${Date.now()}`),
      random: () => 0.5,
    });
    return { log, cycle };
  }

  it('shows first after 10 s for 5 s, then the next entry after the gap, each entry once', () => {
    const entries = ['a', 'b'];
    const { log, cycle } = cycleOver(entries);
    const start = Date.now();
    const gap = MIN_GAP_MS + (MAX_GAP_MS - MIN_GAP_MS) / 2;
    vi.advanceTimersByTime(FIRST_DELAY_MS - 1);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1 + 10 * (VISIBLE_MS + gap));
    expect(log).toEqual([
      `show a at ${start + FIRST_DELAY_MS}`,
      `hide at ${start + FIRST_DELAY_MS + VISIBLE_MS}`,
      `show b at ${start + FIRST_DELAY_MS + VISIBLE_MS + gap}`,
      `hide at ${start + FIRST_DELAY_MS + 2 * VISIBLE_MS + gap}`,
    ]);
    // A delivery that arrives later is shown at the next turn, once.
    entries.unshift('c');
    vi.advanceTimersByTime(MAX_GAP_MS + VISIBLE_MS);
    expect(log.filter((line) => line.startsWith('show c'))).toHaveLength(1);
    vi.advanceTimersByTime(10 * MAX_GAP_MS);
    expect(log.filter((line) => line.startsWith('show'))).toHaveLength(3);
    cycle.stop();
  });

  it('stops when stopped', () => {
    const { log, cycle } = cycleOver(['a']);
    cycle.stop();
    vi.advanceTimersByTime(10 * MAX_GAP_MS);
    expect(log).toEqual([]);
  });

  it('keeps gaps between 25 and 45 s', () => {
    expect(nextGapMs(() => 0)).toBe(25_000);
    expect(nextGapMs(() => 1)).toBe(45_000);
    for (let i = 0; i < 100; i += 1) {
      const gap = nextGapMs();
      expect(gap).toBeGreaterThanOrEqual(MIN_GAP_MS);
      expect(gap).toBeLessThanOrEqual(MAX_GAP_MS);
    }
  });

  it('shows nothing when there is nothing true to show', () => {
    const { log } = cycleOver([]);
    vi.advanceTimersByTime(5 * 60_000);
    expect(log).toEqual([]);
  });
});
