import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_DELAY_MS, MAX_GAP_MS, MIN_GAP_MS, VISIBLE_MS, nextGapMs, startActivityCycle } from './activity-cycle';

describe('recent-activity popup timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows first after 10 s for 5 s, then again after the gap, cycling through the entries', () => {
    const log: string[] = [];
    const cycle = startActivityCycle({
      count: 2,
      show: (index) => log.push(`show ${index} at ${Date.now()}`),
      hide: () => log.push(`hide at ${Date.now()}`),
      random: () => 0.5,
    });
    const start = Date.now();
    const gap = MIN_GAP_MS + (MAX_GAP_MS - MIN_GAP_MS) / 2;
    vi.advanceTimersByTime(FIRST_DELAY_MS - 1);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1 + VISIBLE_MS + gap + VISIBLE_MS + gap + 1);
    expect(log).toEqual([
      `show 0 at ${start + FIRST_DELAY_MS}`,
      `hide at ${start + FIRST_DELAY_MS + VISIBLE_MS}`,
      `show 1 at ${start + FIRST_DELAY_MS + VISIBLE_MS + gap}`,
      `hide at ${start + FIRST_DELAY_MS + 2 * VISIBLE_MS + gap}`,
      `show 0 at ${start + FIRST_DELAY_MS + 2 * VISIBLE_MS + 2 * gap}`,
    ]);
    cycle.stop();
    vi.advanceTimersByTime(10 * MAX_GAP_MS);
    expect(log).toHaveLength(5);
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
    const show = vi.fn();
    startActivityCycle({ count: 0, show, hide: vi.fn() });
    vi.advanceTimersByTime(5 * 60_000);
    expect(show).not.toHaveBeenCalled();
  });
});
