import { describe, expect, it } from 'vitest';
import { experimentReport, newcombeDifference, normalQuantile, sampleSizePerVariant, wilsonInterval } from './experiment-stats';
import type { HeroExperiment } from './experiments';

const experiment = (variants: number, overrides: Partial<HeroExperiment> = {}): HeroExperiment => ({
  id: 'test',
  path: '/test',
  name: 'Test',
  variants: ['a', 'b', 'c'].slice(0, variants).map((id) => ({ id, label: id.toUpperCase() })),
  startedAt: '2026-11-01T00:00:00Z',
  baselineConversion: 0.1,
  minimumDetectableEffect: 0.05,
  alpha: 0.05,
  power: 0.8,
  ...overrides,
});

describe('normalQuantile', () => {
  it('matches the tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.0125)).toBeCloseTo(-2.241403, 5);
  });
});

describe('sampleSizePerVariant', () => {
  it('is the two-proportion z-test size (10 % → 15 %, alpha 0.05, power 0.8: 685.6 by hand)', () => {
    expect(sampleSizePerVariant(experiment(2))).toBe(686);
  });

  it('splits alpha across the comparisons with the control, so three variants need more each', () => {
    // Same test at alpha 0.025 (two comparisons).
    expect(sampleSizePerVariant(experiment(3))).toBe(sampleSizePerVariant(experiment(2, { alpha: 0.025 })));
    expect(sampleSizePerVariant(experiment(3))).toBeGreaterThan(686);
  });

  it('grows as the lift to detect shrinks', () => {
    expect(sampleSizePerVariant(experiment(2, { minimumDetectableEffect: 0.025 }))).toBeGreaterThan(2 * 686);
  });
});

describe('intervals', () => {
  it("Wilson's interval matches Newcombe (1998), 81 of 263", () => {
    const { low, high } = wilsonInterval(81, 263, 1.959964);
    expect(low).toBeCloseTo(0.2553, 4);
    expect(high).toBeCloseTo(0.3662, 4);
  });

  it('Wilson stays within 0–1 at the edges', () => {
    expect(wilsonInterval(0, 10, 1.96).low).toBe(0);
    expect(wilsonInterval(10, 10, 1.96).high).toBe(1);
    expect(wilsonInterval(0, 0, 1.96)).toEqual({ low: 0, high: 1 });
  });

  it("Newcombe's difference matches his example, 56/70 − 48/80 (0.0524 to 0.3339)", () => {
    const { low, high } = newcombeDifference({ successes: 48, trials: 80 }, { successes: 56, trials: 70 }, 1.959964);
    expect(low).toBeCloseTo(0.0524, 4);
    expect(high).toBeCloseTo(0.3339, 4);
  });
});

describe('experimentReport', () => {
  const needed = sampleSizePerVariant(experiment(2));

  it('gives no verdict before every variant has its sample, however large the difference', () => {
    const report = experimentReport(experiment(2), [
      { variantId: 'a', visitors: needed, leads: 10 },
      { variantId: 'b', visitors: needed - 1, leads: 300 },
    ]);
    expect(report.complete).toBe(false);
    expect(report.recommended).toBeNull();
    expect(report.results.map((result) => result.outcome)).toEqual([null, null]);
    expect(report.verdict).toMatch(/^Non ancora significativo: servono 686 visitatori per variante \(ne mancano B: 1\)/);
  });

  it('names a significantly better challenger once complete', () => {
    const report = experimentReport(experiment(2), [
      { variantId: 'a', visitors: 1000, leads: 100 },
      { variantId: 'b', visitors: 1000, leads: 160 },
    ]);
    expect(report.complete).toBe(true);
    expect(report.results[1]!.outcome).toBe('better');
    expect(report.recommended).toBe('b');
    expect(report.verdict).toMatch(/^Differenza significativa: converte più del controllo B \(16,0\s?%, \+6,0 punti/);
  });

  it('says plainly when nothing differs, and recommends the control', () => {
    const report = experimentReport(experiment(3), [
      { variantId: 'a', visitors: 2000, leads: 200 },
      { variantId: 'b', visitors: 2000, leads: 210 },
      { variantId: 'c', visitors: 2000, leads: 190 },
    ]);
    expect(report.results.map((result) => result.outcome)).toEqual([null, 'same', 'same']);
    expect(report.recommended).toBe('a');
    expect(report.verdict).toMatch(/^Nessuna differenza significativa/);
  });

  it('reports a worse challenger, at the Bonferroni confidence', () => {
    const report = experimentReport(experiment(3), [
      { variantId: 'a', visitors: 2000, leads: 240 },
      { variantId: 'b', visitors: 2000, leads: 150 },
      { variantId: 'c', visitors: 2000, leads: 235 },
    ]);
    expect(report.confidence).toBeCloseTo(0.975, 9);
    expect(report.results[1]!.outcome).toBe('worse');
    expect(report.verdict).toMatch(/converte meno del controllo B/);
  });

  it('counts at least as many visitors as leads (a lead without a recorded page view)', () => {
    const report = experimentReport(experiment(2), [{ variantId: 'a', visitors: 0, leads: 2 }]);
    expect(report.results[0]!.conversion).toBe(1);
    expect(report.results[1]).toMatchObject({ visitors: 0, leads: 0, conversion: 0 });
  });
});
