/**
 * A/B experiments on the hero of a landing page (decision 041). The definitions live here
 * because the API assigns the variants and counts them (decision 051); the copy of
 * each variant lives in the web's content (web/app/content/hero-experiments.ts), which the
 * type checker holds to the same variant ids.
 *
 * An experiment's numbers are fixed before it starts (no peeking): the sample size per
 * variant follows from the baseline conversion, the smallest lift worth detecting, alpha
 * and power, and the admin gives a verdict only once every variant has reached it.
 * Changing a variant's copy or these numbers means a new experiment id.
 */
export interface HeroExperiment {
  id: string;
  /** The landing page whose hero varies. */
  path: `/${string}`;
  /** The operator's name for the experiment. */
  name: string;
  /** Two or three variants; the first is the control, the page as it was. */
  variants: readonly { id: string; label: string }[];
  /** When the experiment started: visitors and leads count from here. */
  startedAt: string;
  /** Expected conversion of the control (leads per visitor), 0–1. */
  baselineConversion: number;
  /** The smallest absolute lift of the conversion worth detecting, 0–1 (0.02 = 2 points). */
  minimumDetectableEffect: number;
  /** Two-sided, for the whole experiment (split across the comparisons with the control). */
  alpha: number;
  power: number;
}

export const HERO_EXPERIMENTS: readonly HeroExperiment[] = [
  {
    // Replaces hero-trading-automatico-2026-11, whose variants B and C promised what the
    // guide does not have (ten pages, a budget template, advice "nel tuo caso"): its
    // numbers measured claims that are gone.
    id: 'hero-trading-automatico-2026-11-27',
    path: '/trading-automatico',
    name: 'Titolo della pagina /trading-automatico',
    variants: [
      { id: 'a', label: 'A · Controllo: fare ordine nei soldi' },
      { id: 'b', label: 'B · Bilancio passo dopo passo' },
      { id: 'c', label: 'C · Niente tecnicismi' },
    ],
    startedAt: '2026-11-27T00:00:00Z',
    baselineConversion: 0.05,
    minimumDetectableEffect: 0.02,
    alpha: 0.05,
    power: 0.8,
  },
];

export function experimentOfPath(path: string | null | undefined): HeroExperiment | undefined {
  return path ? HERO_EXPERIMENTS.find((experiment) => experiment.path === path) : undefined;
}

export function experimentById(id: string): HeroExperiment | undefined {
  return HERO_EXPERIMENTS.find((experiment) => experiment.id === id);
}

export const isVariantOf = (experiment: HeroExperiment, variantId: string) =>
  experiment.variants.some((variant) => variant.id === variantId);

/**
 * Where the web build prerenders a variant: the control at the page's own path, the others
 * below it. The API serves these files at the page's path only; their own paths are 404.
 */
export function variantPagePath(experiment: HeroExperiment, variantId: string): string {
  return variantId === experiment.variants[0]!.id ? experiment.path : `${experiment.path}/${VARIANT_SEGMENT_PREFIX}${variantId}`;
}

/** The path segment of a variant's prerendered page. */
export const VARIANT_SEGMENT_PREFIX = 'variante-';

/** The attribute of the served page's hero naming its variant (for tests and support: the API counts the visit's signed one, decision 051). */
export const HERO_VARIANT_ATTRIBUTE = 'data-hero-variant';

/** The admin's messages about experiments. */
export const experimentMessages = {
  unknownExperiment: 'Esperimento non trovato.',
  unknownWinner: 'Scegli una delle varianti dell’esperimento.',
  alreadyStopped: 'L’esperimento è già stato fermato.',
  stopped: (label: string) => `Esperimento fermato: da ora tutti i visitatori vedono la variante «${label}».`,
} as const;
