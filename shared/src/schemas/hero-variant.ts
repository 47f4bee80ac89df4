import { z } from 'zod';
import { experimentOfPath, isVariantOf } from '../experiments';
import { validationMessages as m } from '../messages';

/** The hero variant a page reports (decision 041): a short id, checked against its page's experiment. */
export const heroVariantField = z
  .string({ error: m.heroVariant })
  .trim()
  .max(20, { error: m.heroVariant })
  .nullish()
  .transform((value) => value || null);

/** Whether `variant` is one of the experiment on `page` (false on a page without experiment). */
export function isVariantOfPage(page: string | null | undefined, variant: string) {
  const experiment = experimentOfPath(page);
  return Boolean(experiment && isVariantOf(experiment, variant));
}

/**
 * Refuses a variant that is not one of the experiment on the reported page (or a variant
 * on a page without experiment): numbers per variant count only what the site can show.
 */
export function checkHeroVariant<T extends { heroVariant: string | null }>(pageOf: (value: T) => string | null | undefined) {
  return (value: T, ctx: z.RefinementCtx<T>) => {
    if (value.heroVariant && !isVariantOfPage(pageOf(value), value.heroVariant)) {
      ctx.addIssue({ code: 'custom', path: ['heroVariant'], message: m.heroVariant });
    }
  };
}
