import type { Knex } from 'knex';
import { DeliveryTransitionError, type DeliveryKind, type Transition } from './delivery-statuses';

/**
 * What the three delivery tables share: a status moved by a transition, a claim that
 * another run may take over once it is older than the claim timeout, and the sweep of
 * what is due. Used only inside this folder.
 */

/** A literal SQL list of statuses (constants of this module, never input), for partial indexes. */
export const sqlList = (statuses: readonly string[]) => statuses.map((status) => `'${status}'`).join(', ');

export interface TransitionOptions {
  /** Only a row not changed for this long moves (a takeover of an abandoned claim). */
  olderThanMs?: number;
}

/** Moves one row along `transition`; false when it is not in one of the `from` statuses. */
export async function applyTransition<S extends string>(
  db: Knex,
  table: string,
  id: number,
  transition: Transition<S>,
  changes: Record<string, unknown> = {},
  { olderThanMs }: TransitionOptions = {},
) {
  const query = db(table).where({ id }).whereIn('status', transition.from);
  if (olderThanMs !== undefined) {
    query.where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [olderThanMs / 1000]));
  }
  const moved = await query.update({ status: transition.to, updated_at: db.fn.now(), ...changes }).returning('id');
  return moved.length === 1;
}

/** Like applyTransition, for callers that must hear why not: throws DeliveryTransitionError. */
export async function applyTransitionOrRefuse<S extends string>(
  db: Knex,
  kind: DeliveryKind,
  operation: string,
  table: string,
  id: number,
  transition: Transition<S>,
  changes: Record<string, unknown> = {},
) {
  if (await applyTransition(db, table, id, transition, changes)) return;
  throw new DeliveryTransitionError(kind, operation, (await statusOf(db, table, id)) ?? null);
}

export async function statusOf<S extends string>(db: Knex, table: string, id: number): Promise<S | undefined> {
  const row = await db(table).where({ id }).first<{ status: S } | undefined>('status');
  return row?.status;
}

export interface DueOptions {
  /** Rows still to send younger than this are left to whoever enqueued them a moment ago. */
  graceMs: number;
  /** Claims older than this were left by a worker that stopped mid-send. */
  claimTimeoutMs: number;
  limit: number;
}

/**
 * Rows a worker should run now: still to send (after the grace), or claimed longer ago
 * than the claim timeout. Oldest first. Each status list is written out so Postgres uses
 * the partial indexes on unsent rows and on claims.
 */
export function dueRows(db: Knex, table: string, unsent: readonly string[], sending: readonly string[], options: DueOptions) {
  return db(table)
    .where((where) => {
      void where
        .where((due) => {
          void due
            .whereRaw(`status IN (${sqlList(unsent)})`)
            .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [options.graceMs / 1000]));
        })
        .orWhere((abandoned) => {
          void abandoned
            .whereRaw(`status IN (${sqlList(sending)})`)
            .where('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [options.claimTimeoutMs / 1000]));
        });
    })
    .orderBy('updated_at')
    .limit(options.limit);
}

interface ClaimTransitions<S extends string> {
  claim: Transition<S>;
  takeOver: Transition<S>;
}

/** A worker may try the delivery: claim it, or take over a claim (if it turns out abandoned). */
export const isClaimable = <S extends string>(transitions: ClaimTransitions<S>, status: S) =>
  transitions.claim.from.includes(status) || transitions.takeOver.from.includes(status);

/** Claiming from this status means taking over another run's claim. */
export const isTakeOver = <S extends string>(transitions: ClaimTransitions<S>, status: S) =>
  transitions.takeOver.from.includes(status);

/**
 * Claims a row for a worker's run, or takes over a claim older than `claimTimeoutMs`
 * (its worker stopped mid-send). 'taken-over' tells the caller the earlier run may have
 * sent it already; null when another run holds it or it is no longer to send.
 */
export async function claimRow<S extends string>(
  db: Knex,
  table: string,
  transitions: ClaimTransitions<S>,
  row: { id: number; status: S },
  changes: Record<string, unknown>,
  claimTimeoutMs: number,
): Promise<'claimed' | 'taken-over' | null> {
  if (isTakeOver(transitions, row.status)) {
    const taken = await applyTransition(db, table, row.id, transitions.takeOver, changes, { olderThanMs: claimTimeoutMs });
    return taken ? 'taken-over' : null;
  }
  return (await applyTransition(db, table, row.id, transitions.claim, changes)) ? 'claimed' : null;
}
