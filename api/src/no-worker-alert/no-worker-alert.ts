import { alertChannelSettings, createMailer } from '@guida/shared/server/alerts/alert-channels';
import { createAlertEvaluator } from '@guida/shared/server/alerts/evaluate-alerts';
import { createAlertNotifier } from '@guida/shared/server/alerts/send-alert-notifications';
import { measureNoWorker } from '@guida/shared/server/worker-heartbeats';
import type { ApiDeps } from '../dependencies';

/** Every API process checks this often; the evaluation's lock lets one act at a time. */
export const NO_WORKER_CHECK_INTERVAL_MS = 30_000;

/**
 * The no-worker alert (decision 058): the API, not a worker, opens it when no worker
 * heartbeat is newer than WORKER_HEARTBEAT_ALERT_MINUTES, resolves it when one is, and
 * sends its notifications itself (directly by SMTP and webhook: with no worker, nothing
 * would take them from a queue). The other alerts' incidents are left to the worker.
 */
export function createNoWorkerAlert({ config, db, logger, now = () => new Date() }: Pick<ApiDeps, 'config' | 'db' | 'logger' | 'now'>) {
  const { channels, ...delivery } = alertChannelSettings(config);
  const mailer = createMailer(config, db, logger);
  const evaluate = createAlertEvaluator({
    db,
    logger,
    channels,
    measures: { no_worker: measureNoWorker(config.WORKER_HEARTBEAT_ALERT_MINUTES, now()) },
  });
  const send = createAlertNotifier({ db, logger, mailer, ...delivery, kinds: ['no_worker'] });

  /** One check as of the clock: evaluate, then send what is due (a failed send is retried at the next). */
  async function check() {
    const at = now();
    const evaluation = await evaluate(at);
    const sent = await send(at);
    return { evaluation, sent };
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    check,
    /** Checks every NO_WORKER_CHECK_INTERVAL_MS; a check still running skips the next turn. */
    start() {
      let busy = false;
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        running = check()
          .catch((error: Error) => logger.warn({ err: error.message }, 'could not check the worker heartbeats'))
          .finally(() => {
            busy = false;
          });
      }, NO_WORKER_CHECK_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
      mailer.close();
    },
  };
}
