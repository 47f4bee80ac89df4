/**
 * Hero A/B experiments (decision 041): which variant each visitor is served, the signed
 * visit sessions that carry it back (decision 051), and the stopped experiments' outcomes.
 * The site serves the variants; the analytics and the lead count them; the admin reports
 * and stops.
 */
export { experimentOutcomes, stopExperiment, type ExperimentOutcome } from './experiment-outcomes.repo';
export { servedVariantsOf, visitSessionsOf } from './per-app';
export type { ServedVariants } from './served-variants';
export { attributedEvents, type VisitSessions } from './visit-attribution';
export { visitSessionRouter } from './visit-session.routes';
