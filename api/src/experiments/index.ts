/**
 * Hero A/B experiments (decision 041): which variant each visitor is served, and the
 * stopped experiments' outcomes. The site serves the variants; the admin reports and stops.
 */
import type { ApiDeps } from '../dependencies';
import { createServedVariants, type ServedVariants } from './served-variants';

export { experimentOutcomes, stopExperiment, type ExperimentOutcome } from './experiment-outcomes.repo';
export type { ServedVariants } from './served-variants';

const servedVariantsByApp = new WeakMap<ApiDeps, ServedVariants>();

/** One per app, so that a stop made through the admin reaches the site router of the same process at once. */
export function servedVariantsOf(deps: ApiDeps): ServedVariants {
  let served = servedVariantsByApp.get(deps);
  if (!served) {
    served = createServedVariants({ db: deps.db, secret: deps.config.SESSION_SECRET, logger: deps.logger });
    servedVariantsByApp.set(deps, served);
  }
  return served;
}
