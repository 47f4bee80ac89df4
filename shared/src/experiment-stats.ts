import type { HeroExperiment } from './experiments';

/**
 * The statistics of a hero experiment (decision 041): a fixed-horizon test. The sample
 * size per variant is computed before the experiment from its planned numbers; each
 * challenger is compared with the control by Newcombe's interval for a difference of
 * proportions, at the experiment's alpha split evenly across the comparisons (Bonferroni),
 * and the verdict is given only once every variant has its sample: looking earlier, as
 * often as one likes, cannot make a difference look significant.
 */

/** Inverse of the standard normal distribution function (Acklam; relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability out of (0, 1): ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

type Plan = Pick<HeroExperiment, 'baselineConversion' | 'minimumDetectableEffect' | 'alpha' | 'power'> & { variants: readonly unknown[] };

/** The alpha of each comparison with the control. */
export const comparisonAlpha = (plan: Plan) => plan.alpha / Math.max(1, plan.variants.length - 1);

/**
 * Visitors each variant needs for a two-sided two-proportion z-test to detect the planned
 * lift over the baseline with the planned power.
 */
export function sampleSizePerVariant(plan: Plan): number {
  const p1 = plan.baselineConversion;
  const p2 = p1 + plan.minimumDetectableEffect;
  if (!(p1 > 0 && p2 < 1 && plan.minimumDetectableEffect > 0)) throw new RangeError('baseline and lift must stay within (0, 1)');
  const zAlpha = normalQuantile(1 - comparisonAlpha(plan) / 2);
  const zPower = normalQuantile(plan.power);
  const pooled = (p1 + p2) / 2;
  const root = zAlpha * Math.sqrt(2 * pooled * (1 - pooled)) + zPower * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / plan.minimumDetectableEffect ** 2);
}

export interface Interval {
  low: number;
  high: number;
}

/** Wilson's score interval for a proportion of `successes` in `trials`. */
export function wilsonInterval(successes: number, trials: number, z: number): Interval {
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Newcombe's hybrid score interval (his method 10) for the difference of two proportions,
 * `second − first`, from the Wilson intervals of each.
 */
export function newcombeDifference(first: { successes: number; trials: number }, second: { successes: number; trials: number }, z: number): Interval {
  const p1 = first.trials ? first.successes / first.trials : 0;
  const p2 = second.trials ? second.successes / second.trials : 0;
  const w1 = wilsonInterval(first.successes, first.trials, z);
  const w2 = wilsonInterval(second.successes, second.trials, z);
  const difference = p2 - p1;
  return {
    low: difference - Math.sqrt((p2 - w2.low) ** 2 + (w1.high - p1) ** 2),
    high: difference + Math.sqrt((w2.high - p2) ** 2 + (p1 - w1.low) ** 2),
  };
}

export interface VariantCounts {
  variantId: string;
  visitors: number;
  leads: number;
}

export interface VariantResult extends VariantCounts {
  label: string;
  conversion: number;
  /** Wilson interval of the conversion, at the comparisons' confidence. */
  interval: Interval;
  /** Challenger minus control, Newcombe; null for the control. */
  difference: Interval | null;
  /** Only once every variant has its sample: 'better' or 'worse' than the control, or 'same'. */
  outcome: 'better' | 'worse' | 'same' | null;
}

export interface ExperimentReport {
  sampleSizePerVariant: number;
  /** Of each interval: 1 − alpha / comparisons. */
  confidence: number;
  complete: boolean;
  results: VariantResult[];
  /** The variant the numbers favour once complete: the best significantly better challenger, else the control. */
  recommended: string | null;
  /** The verdict in plain Italian. */
  verdict: string;
}

const percent = (value: number, digits = 1) =>
  new Intl.NumberFormat('it-IT', { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
const points = (value: number) =>
  `${value >= 0 ? '+' : '−'}${new Intl.NumberFormat('it-IT', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.abs(value) * 100)} punti`;
const count = (value: number) => new Intl.NumberFormat('it-IT').format(value);

/** The per-variant figures and the verdict of an experiment, from its counts. */
export function experimentReport(experiment: HeroExperiment, counts: readonly VariantCounts[]): ExperimentReport {
  const needed = sampleSizePerVariant(experiment);
  const alpha = comparisonAlpha(experiment);
  const z = normalQuantile(1 - alpha / 2);
  const byId = new Map(counts.map((entry) => [entry.variantId, entry]));
  const complete = experiment.variants.every(({ id }) => (byId.get(id)?.visitors ?? 0) >= needed);
  // A lead whose page view was not recorded (no JavaScript, a blocker) still counts as a
  // lead; a rate above 100 % would mean nothing, so the visitors count at least the leads.
  const sample = (variantId: string) => {
    const entry = byId.get(variantId) ?? { variantId, visitors: 0, leads: 0 };
    return { successes: entry.leads, trials: Math.max(entry.visitors, entry.leads) };
  };
  const control = sample(experiment.variants[0]!.id);
  const results: VariantResult[] = experiment.variants.map(({ id, label }, index) => {
    const own = sample(id);
    const difference = index === 0 ? null : newcombeDifference(control, own, z);
    const outcome = !complete || !difference ? null : difference.low > 0 ? 'better' : difference.high < 0 ? 'worse' : 'same';
    return {
      variantId: id,
      label,
      visitors: byId.get(id)?.visitors ?? 0,
      leads: own.successes,
      conversion: own.trials ? own.successes / own.trials : 0,
      interval: wilsonInterval(own.successes, own.trials, z),
      difference,
      outcome,
    };
  });

  if (!complete) {
    const missing = results
      .filter((result) => result.visitors < needed)
      .map((result) => `${result.label}: ${count(needed - result.visitors)}`)
      .join('; ');
    return {
      sampleSizePerVariant: needed,
      confidence: 1 - alpha,
      complete,
      results,
      recommended: null,
      verdict: `Non ancora significativo: servono ${count(needed)} visitatori per variante (ne mancano ${missing}). Fino ad allora le differenze possono essere dovute al caso.`,
    };
  }
  const better = results.filter((result) => result.outcome === 'better').sort((x, y) => y.conversion - x.conversion);
  const worse = results.filter((result) => result.outcome === 'worse');
  const describe = (result: VariantResult) =>
    `${result.label} (${percent(result.conversion)}, ${points(result.conversion - results[0]!.conversion)}; intervallo da ${points(result.difference!.low)} a ${points(result.difference!.high)})`;
  const sentences: string[] = [];
  if (better.length > 0) sentences.push(`Differenza significativa: converte più del controllo ${better.map(describe).join(' e ')}.`);
  if (worse.length > 0) sentences.push(`Differenza significativa: converte meno del controllo ${worse.map(describe).join(' e ')}.`);
  if (sentences.length === 0) {
    sentences.push(
      `Nessuna differenza significativa: con ${count(needed)} visitatori per variante nessuna variante si distingue dal controllo. Se ci fosse, la differenza sarebbe probabilmente inferiore a ${points(experiment.minimumDetectableEffect).slice(1)}.`,
    );
  }
  const recommended = better[0]?.variantId ?? experiment.variants[0]!.id;
  return { sampleSizePerVariant: needed, confidence: 1 - alpha, complete, results, recommended, verdict: sentences.join(' ') };
}
