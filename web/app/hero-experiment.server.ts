import { experimentOfPath, VARIANT_SEGMENT_PREFIX } from '@guida/shared/experiments';
import { HERO_VARIANT_COPY } from './content/hero-experiments';
import type { LandingContent } from './content/types';

/**
 * A landing page's content for the variant being prerendered (decision 041). A page under
 * experiment is prerendered once per variant: the control at its own path, each other
 * variant at `<path>/variante-<id>` (the route's optional segment), and the API serves
 * the visitor's variant at the page's path. Pages without an experiment are unchanged.
 */
export function landingForVariant(content: LandingContent, requestPath: string, params: { heroVariant?: string }) {
  const segment = params.heroVariant;
  const landingPath = segment === undefined ? requestPath : requestPath.slice(0, requestPath.lastIndexOf('/')) || '/';
  const experiment = experimentOfPath(landingPath);
  if (!experiment) {
    if (segment !== undefined) throw new Response('Not Found', { status: 404 });
    return { content, landingPath, heroVariant: null };
  }
  const variantId = segment === undefined ? experiment.variants[0]!.id : segment.slice(VARIANT_SEGMENT_PREFIX.length);
  const copy = HERO_VARIANT_COPY[experiment.id]?.[variantId];
  if (!copy || (segment !== undefined && !segment.startsWith(VARIANT_SEGMENT_PREFIX))) {
    throw new Response('Not Found', { status: 404 });
  }
  const { submitLabel, ...hero } = copy;
  return {
    content: { ...content, hero, form: { ...content.form, submitLabel } },
    landingPath,
    heroVariant: variantId,
  };
}
