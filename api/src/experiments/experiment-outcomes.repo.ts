import type { Knex } from 'knex';

export interface ExperimentOutcome {
  experimentId: string;
  winnerVariant: string;
  stoppedAt: Date;
}

/** The stopped experiments with the variant kept. */
export async function experimentOutcomes(db: Knex): Promise<Map<string, ExperimentOutcome>> {
  const rows: { experiment_id: string; winner_variant: string; stopped_at: Date }[] = await db('hero_experiment_outcomes').select(
    'experiment_id',
    'winner_variant',
    'stopped_at',
  );
  return new Map(
    rows.map((row) => [row.experiment_id, { experimentId: row.experiment_id, winnerVariant: row.winner_variant, stoppedAt: row.stopped_at }]),
  );
}

/** Stops an experiment keeping `winner`; false when it was stopped already (the first decision stands). */
export async function stopExperiment(db: Knex, experimentId: string, winner: string, userId: number): Promise<boolean> {
  const inserted = await db('hero_experiment_outcomes')
    .insert({ experiment_id: experimentId, winner_variant: winner, stopped_by: userId })
    .onConflict('experiment_id')
    .ignore()
    .returning('experiment_id');
  return inserted.length > 0;
}
