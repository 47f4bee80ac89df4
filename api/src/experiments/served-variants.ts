import type { Knex } from 'knex';
import type { HeroExperiment } from '@guida/shared/experiments';
import type { Logger } from '@guida/shared/server/logger';
import { assignedVariant } from './hero-assignment';
import { experimentOutcomes, type ExperimentOutcome } from './experiment-outcomes.repo';

/**
 * How long an API process trusts its copy of the stopped experiments. A stop made in
 * another process reaches this one within this time; one made here, at once.
 */
const OUTCOMES_FRESH_MS = 5000;

/**
 * The variant each request of a page under experiment is served: the winner once the
 * experiment is stopped, else the visitor's assigned one. Reading the outcomes never
 * fails a page: with the database away, the last known outcomes (or none) hold.
 */
export function createServedVariants(options: { db: Knex; secret: string; logger: Logger; now?: () => Date }) {
  const now = options.now ?? (() => new Date());
  let outcomes = new Map<string, ExperimentOutcome>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | null = null;

  const refresh = async () => {
    reading ??= experimentOutcomes(options.db)
      .then((fresh) => {
        outcomes = fresh;
        readAt = Date.now();
      })
      .catch((error: unknown) => {
        options.logger.warn({ err: (error as Error).message }, 'experiment outcomes not read: the last known ones hold');
      })
      .finally(() => {
        reading = null;
      });
    await reading;
  };

  return {
    async variantFor(experiment: HeroExperiment, visitor: { ip: string | undefined; userAgent: string | undefined }) {
      if (Date.now() - readAt > OUTCOMES_FRESH_MS) await refresh();
      const winner = outcomes.get(experiment.id)?.winnerVariant;
      return winner ?? assignedVariant(experiment, visitor, options.secret, now());
    },
    /** After a stop in this process: the next request reads the outcomes again. */
    forget() {
      readAt = Number.NEGATIVE_INFINITY;
    },
  };
}

export type ServedVariants = ReturnType<typeof createServedVariants>;
