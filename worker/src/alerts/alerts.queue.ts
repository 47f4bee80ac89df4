import { UnrecoverableError, type Job } from 'bullmq';
import { alertChannelSettings } from '@guida/shared/server/alerts/alert-channels';
import { createAlertEvaluator } from '@guida/shared/server/alerts/evaluate-alerts';
import { createAlertNotifier } from '@guida/shared/server/alerts/send-alert-notifications';
import type { ProcessorDeps, QueueDeclaration } from '../queue-declaration';
import { alertSettingsOf, deliveryAlertMeasures } from './alert-conditions';

export const evaluateAlertsJob = { name: 'evaluate-alerts' } as const;
export const sendAlertNotificationsJob = { name: 'send-alert-notifications' } as const;

/** The conditions are evaluated every minute; notifications due for a retry are looked for as often. */
const ALERTS_INTERVAL_MS = 60_000;

/** The evaluator and the notifier as the worker's configuration sets them up. */
export function alertRuntime({ config, db, logger, mailer }: Pick<ProcessorDeps, 'config' | 'db' | 'logger' | 'mailer'>) {
  const { channels, ...delivery } = alertChannelSettings(config);
  const evaluate = createAlertEvaluator({
    db,
    logger,
    channels,
    measures: deliveryAlertMeasures(alertSettingsOf(config)),
  });
  // Every kind's notifications, the API's no-worker ones included once a worker is back.
  const send = createAlertNotifier({ db, logger, mailer, ...delivery });
  return { evaluate, send };
}

/**
 * Alerts (decision 039): the evaluation and the sending of notifications, each on a job
 * scheduler (one run per interval however many workers run), in a queue of their own so
 * that a slow SMTP server delays neither the maintenance sweep nor the next evaluation
 * (two at a time per process: one of each). An evaluation that opened or resolved an
 * incident asks for the sending at once. One attempt each: the next interval is the retry.
 */
export const alertsQueue: QueueDeclaration = {
  queue: 'alerts',
  concurrency: () => 2,
  retryBaseMs: () => ALERTS_INTERVAL_MS,
  schedules: () => [
    { job: evaluateAlertsJob, everyMs: ALERTS_INTERVAL_MS },
    { job: sendAlertNotificationsJob, everyMs: ALERTS_INTERVAL_MS },
  ],
  processor: (deps) => {
    const { evaluate, send } = alertRuntime(deps);
    const run: Record<string, () => Promise<unknown>> = {
      [evaluateAlertsJob.name]: async () => {
        const evaluation = await evaluate(deps.now());
        if (evaluation && evaluation.opened.length + evaluation.resolved.length > 0) {
          await deps.queues.queue('alerts').add(
            sendAlertNotificationsJob.name,
            {},
            { deduplication: { id: sendAlertNotificationsJob.name, keepLastIfActive: true }, removeOnComplete: 100, removeOnFail: 100 },
          );
        }
        return evaluation;
      },
      [sendAlertNotificationsJob.name]: () => send(deps.now()),
    };
    return async (job: Job) => {
      const task = run[job.name];
      if (!task) throw new UnrecoverableError(`unknown alerts job ${job.name}`);
      return task();
    };
  },
};
