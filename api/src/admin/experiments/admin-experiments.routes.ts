import { Router } from 'express';
import { experimentReport } from '@guida/shared/experiment-stats';
import { experimentById, experimentMessages, HERO_EXPERIMENTS, isVariantOf } from '@guida/shared/experiments';
import type { AdminExperimentList } from '@guida/shared/schemas/admin-experiments';
import type { ApiDeps } from '../../dependencies';
import { AppError } from '../../errors';
import { experimentOutcomes, servedVariantsOf, stopExperiment } from '../../experiments';
import { signedIn } from '../admin-auth';
import { auditAdminAction } from '../audit-log';
import { experimentCounts } from './experiment-counts.repo';

/**
 * The hero experiments (decision 041): visitors, leads and conversion per variant with
 * their intervals and the verdict of the test fixed in advance; keeping a variant stops
 * the experiment, and every visitor is then served that variant.
 */
export function adminExperimentsRouter(deps: ApiDeps) {
  const router = Router();

  router.get('/experiments', async (_req, res) => {
    const outcomes = await experimentOutcomes(deps.db);
    const experiments = await Promise.all(
      HERO_EXPERIMENTS.map(async (experiment) => {
        const outcome = outcomes.get(experiment.id);
        const counts = await experimentCounts(deps.db, experiment, {
          from: new Date(experiment.startedAt),
          to: outcome?.stoppedAt ?? new Date('9999-12-31T00:00:00Z'),
        });
        return {
          id: experiment.id,
          name: experiment.name,
          path: experiment.path,
          startedAt: experiment.startedAt,
          plan: {
            baselineConversion: experiment.baselineConversion,
            minimumDetectableEffect: experiment.minimumDetectableEffect,
            alpha: experiment.alpha,
            power: experiment.power,
          },
          stopped: outcome ? { at: outcome.stoppedAt.toISOString(), winner: outcome.winnerVariant } : null,
          report: experimentReport(experiment, counts),
        };
      }),
    );
    const answer: AdminExperimentList = { experiments };
    res.json(answer);
  });

  router.post('/experiments/:id/keep/:variant', async (req, res) => {
    const experiment = experimentById(String(req.params.id));
    if (!experiment) throw new AppError(404, 'experiment_not_found', experimentMessages.unknownExperiment);
    const winner = String(req.params.variant);
    if (!isVariantOf(experiment, winner)) {
      throw new AppError(400, 'validation_error', experimentMessages.unknownWinner, { errors: { winner: experimentMessages.unknownWinner } });
    }
    const stopped = await stopExperiment(deps.db, experiment.id, winner, signedIn(req).user.id);
    if (!stopped) throw new AppError(409, 'experiment_stopped', experimentMessages.alreadyStopped);
    servedVariantsOf(deps).forget();
    await auditAdminAction(deps.db, req, {
      action: 'stop_hero_experiment',
      target: { type: 'hero_experiment', id: experiment.id },
      details: { winner },
    });
    const label = experiment.variants.find((variant) => variant.id === winner)!.label;
    res.json({ message: experimentMessages.stopped(label) });
  });

  return router;
}
