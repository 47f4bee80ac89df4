import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import type { Measurement } from './alerts/evaluate-alerts';
import type { Logger } from './logger';

/**
 * The workers' heartbeats (decision 058), one row per worker process in
 * `worker_heartbeats`: the worker writes them, the API reads them to alert when no worker
 * runs, since the worker's own alerts cannot say that.
 */

/** Often enough that the alert's threshold (minutes) is many missed beats, not one slow write. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/** Rows of processes gone this long ago are dropped: a crashed worker never clears its own. */
const FORGET_AFTER_MS = 7 * 24 * 3600 * 1000;

/**
 * Writes this process's heartbeat now and every HEARTBEAT_INTERVAL_MS; `stop()` writes a
 * last one with `stopped_at`. A failed write is logged and tried at the next beat: the
 * API alerts only after minutes without one.
 */
export function startWorkerHeartbeat({ db, logger, now }: { db: Knex; logger: Logger; now: () => Date }) {
  const worker = { id: randomUUID(), host: hostname(), pid: process.pid, started_at: now() };
  let beating: Promise<void> = Promise.resolve();
  const beat = () => {
    const seen = now();
    beating = db('worker_heartbeats')
      .insert({ ...worker, last_seen: seen })
      .onConflict('id')
      .merge({ last_seen: seen })
      .then(() => db('worker_heartbeats').where('last_seen', '<', new Date(seen.getTime() - FORGET_AFTER_MS)).delete())
      .then(
        () => undefined,
        (error: Error) => logger.warn({ err: error.message }, 'could not write the worker heartbeat'),
      );
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    id: worker.id,
    /** Marks this worker stopped (a clean shutdown): its last sighting is now. */
    async stop() {
      clearInterval(timer);
      await beating;
      const stopped = now();
      await db('worker_heartbeats')
        .where({ id: worker.id })
        .update({ last_seen: stopped, stopped_at: stopped })
        .catch((error: Error) => logger.warn({ err: error.message }, 'could not mark the worker heartbeat stopped'));
    },
  };
}

/** When a worker was last seen running (a stopped one: when it stopped); null when none ever ran. */
export async function lastWorkerHeartbeat(db: Knex): Promise<Date | null> {
  const row = await db('worker_heartbeats').max<{ last_seen: Date | null }>('last_seen as last_seen').first();
  return row?.last_seen ?? null;
}

/**
 * The no-worker condition: no worker seen running in the last `thresholdMinutes` as of
 * `now`. With no heartbeat at all (a new installation), the wait counts from
 * `watchingSince`, so an API started seconds before its first worker does not alert.
 */
export const measureNoWorker =
  (thresholdMinutes: number, watchingSince: Date) =>
  async (db: Knex, now: Date): Promise<Measurement<'no_worker'>> => {
    const lastSeen = await lastWorkerHeartbeat(db);
    return {
      active: now.getTime() - (lastSeen ?? watchingSince).getTime() > thresholdMinutes * 60_000,
      details: { lastSeenAt: lastSeen?.toISOString() ?? null, thresholdMinutes },
    };
  };
