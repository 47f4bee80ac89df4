import type { Knex } from 'knex';

export interface SecondFactorRow {
  user_id: number;
  secret_ciphertext: string;
  confirmed_at: Date | null;
  /** bigint: pg returns it as text. */
  last_used_step: string | null;
}

export const findSecondFactor = (db: Knex, userId: number) =>
  db('admin_second_factors').where({ user_id: userId }).first<SecondFactorRow | undefined>();

/**
 * Stores a new secret awaiting its first code, replacing an earlier unconfirmed one; never
 * a confirmed one (false then: the admin enrolled meanwhile).
 */
export async function saveUnconfirmedSecret(db: Knex, userId: number, ciphertext: string) {
  const rows = await db('admin_second_factors')
    .insert({ user_id: userId, secret_ciphertext: ciphertext })
    .onConflict('user_id')
    .merge({ secret_ciphertext: ciphertext, last_used_step: null, created_at: db.fn.now() })
    .where('admin_second_factors.confirmed_at', null)
    .returning('user_id');
  return rows.length === 1;
}

async function insertRecoveryCodes(trx: Knex.Transaction, userId: number, hashes: string[]) {
  await trx('admin_recovery_codes').where({ user_id: userId }).delete();
  await trx('admin_recovery_codes').insert(hashes.map((code_hash) => ({ user_id: userId, code_hash })));
}

/**
 * Confirms the enrolment with the step of its first code (so that code cannot be used again
 * to sign in) and stores the recovery codes in place of any earlier ones. False when the
 * secret was confirmed or replaced meanwhile.
 */
export async function confirmSecondFactor(db: Knex, userId: number, ciphertext: string, step: number, hashes: string[]) {
  return db.transaction(async (trx) => {
    const confirmed = await trx('admin_second_factors')
      .where({ user_id: userId, secret_ciphertext: ciphertext })
      .whereNull('confirmed_at')
      .update({ confirmed_at: trx.fn.now(), last_used_step: step });
    if (confirmed !== 1) return false;
    await insertRecoveryCodes(trx, userId, hashes);
    return true;
  });
}

/**
 * Takes a code's step, atomically: only when it is later than the last one taken, so a code
 * (or an earlier one still inside the window) is accepted once, even by parallel requests.
 */
export async function takeStep(db: Knex, userId: number, step: number) {
  const taken = await db('admin_second_factors')
    .where({ user_id: userId })
    .whereNotNull('confirmed_at')
    .where((query) => query.whereNull('last_used_step').orWhere('last_used_step', '<', step))
    .update({ last_used_step: step });
  return taken === 1;
}

/** Uses a recovery code, atomically: true once per code. */
export async function takeRecoveryCode(db: Knex, userId: number, hash: string) {
  const used = await db('admin_recovery_codes').where({ user_id: userId, code_hash: hash }).whereNull('used_at').update({ used_at: db.fn.now() });
  return used === 1;
}

export async function recoveryCodesLeft(db: Knex, userId: number) {
  const row = await db('admin_recovery_codes').where({ user_id: userId }).whereNull('used_at').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

export const replaceRecoveryCodes = (db: Knex, userId: number, hashes: string[]) =>
  db.transaction((trx) => insertRecoveryCodes(trx, userId, hashes));

/** Forgets the user's second factor and recovery codes; the next login enrols again. True when there was one. */
export async function deleteSecondFactor(db: Knex, userId: number) {
  return db.transaction(async (trx) => {
    await trx('admin_recovery_codes').where({ user_id: userId }).delete();
    return (await trx('admin_second_factors').where({ user_id: userId }).delete()) > 0;
  });
}
