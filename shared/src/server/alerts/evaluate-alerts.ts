import type { Knex } from 'knex';
import { ALERT_KINDS, type AlertDetails, type AlertKind } from '../../alerts';
import type { Logger } from '../logger';

export type AlertChannel = 'email' | 'webhook';

export interface Measurement<K extends AlertKind> {
  active: boolean;
  details: AlertDetails[K];
}

/** What an evaluator measures: the worker its delivery conditions, the API the workers' heartbeats. */
export type AlertMeasures = { [K in AlertKind]?: (db: Knex, now: Date) => Promise<Measurement<K>> };

export interface AlertEvaluatorDeps {
  db: Knex;
  logger: Logger;
  measures: AlertMeasures;
  /** Where each opened and resolved incident is announced; none = recorded only. */
  channels: readonly AlertChannel[];
}

/** Held by the evaluation that runs (worker's or API's); any other at the same moment skips its turn. */
const ALERTS_LOCK = 0x5b_a1e7;

export interface Evaluation {
  opened: AlertKind[];
  resolved: AlertKind[];
}

/**
 * One evaluation of the measured alerts as of `now`: a condition that holds opens an
 * incident of its kind unless one is open (then only its details are refreshed); an open
 * incident whose condition no longer holds is resolved. Kinds not measured here are left
 * alone. Opening and resolving write, in the same transaction, the notifications to send
 * (alert_notifications), which the sender delivers and retries on its own: a failed
 * email or webhook never holds an evaluation back, nor loses the incident. Returns null
 * when another evaluation held the lock.
 */
export function createAlertEvaluator({ db, logger, measures, channels }: AlertEvaluatorDeps) {
  const kinds = ALERT_KINDS.filter((kind) => measures[kind] !== undefined);
  return async function evaluateAlerts(now: Date): Promise<Evaluation | null> {
    const evaluation = await db.transaction(async (trx) => {
      const { rows } = await trx.raw<{ rows: { locked: boolean }[] }>('SELECT pg_try_advisory_xact_lock(?) AS locked', [ALERTS_LOCK]);
      if (!rows[0]?.locked) return null;
      const open = new Map(
        (await trx('alert_incidents').whereNull('resolved_at').select<{ id: number; kind: AlertKind }[]>('id', 'kind')).map(
          (incident) => [incident.kind, incident.id],
        ),
      );
      const result: Evaluation = { opened: [], resolved: [] };
      for (const kind of kinds) {
        const { active, details } = await (measures[kind] as (db: Knex, now: Date) => Promise<Measurement<typeof kind>>)(trx, now);
        const incidentId = open.get(kind);
        if (active && incidentId === undefined) {
          const [row] = await trx('alert_incidents')
            .insert({ kind, opened_at: now, details: JSON.stringify(details), updated_at: now })
            .returning<{ id: number }[]>('id');
          await notify(trx, row!.id, 'opened', now);
          result.opened.push(kind);
        } else if (active) {
          await trx('alert_incidents').where({ id: incidentId }).update({ details: JSON.stringify(details), updated_at: now });
        } else if (incidentId !== undefined) {
          // The details stay those of the last evaluation that found the condition.
          await trx('alert_incidents').where({ id: incidentId }).update({ resolved_at: now, updated_at: now });
          await notify(trx, incidentId, 'resolved', now);
          result.resolved.push(kind);
        }
      }
      return result;
    });
    if (evaluation) {
      for (const kind of evaluation.opened) logger.warn({ alert: kind }, 'alert opened');
      for (const kind of evaluation.resolved) logger.info({ alert: kind }, 'alert resolved');
    }
    return evaluation;
  };

  async function notify(trx: Knex.Transaction, incidentId: number, event: 'opened' | 'resolved', now: Date) {
    if (channels.length === 0) return;
    await trx('alert_notifications').insert(
      channels.map((channel) => ({ incident_id: incidentId, event, channel, next_attempt_at: now })),
    );
  }
}
