import type { ApiDeps } from '../dependencies';
import { createServedVariants, type ServedVariants } from './served-variants';
import { createVisitSessions, type VisitSessions } from './visit-attribution';

const servedVariantsByApp = new WeakMap<ApiDeps, ServedVariants>();
const visitSessionsByApp = new WeakMap<ApiDeps, VisitSessions>();

/** One per app, so that a stop made through the admin reaches the site router of the same process at once. */
export function servedVariantsOf(deps: ApiDeps): ServedVariants {
  let served = servedVariantsByApp.get(deps);
  if (!served) {
    served = createServedVariants({ db: deps.db, secret: deps.config.SESSION_SECRET, logger: deps.logger });
    servedVariantsByApp.set(deps, served);
  }
  return served;
}

/** One per app, on the app's served variants: a session issued after a stop holds the winner. */
export function visitSessionsOf(deps: ApiDeps): VisitSessions {
  let sessions = visitSessionsByApp.get(deps);
  if (!sessions) {
    sessions = createVisitSessions(deps, servedVariantsOf(deps));
    visitSessionsByApp.set(deps, sessions);
  }
  return sessions;
}
