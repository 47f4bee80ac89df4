import type { Knex } from 'knex';

export interface UserRow {
  id: number;
  username: string;
  password: string;
  is_admin: boolean;
}

export const findUserByUsername = (db: Knex, username: string) =>
  db('users').whereRaw('lower(username) = lower(?)', [username]).first<UserRow | undefined>();

export const findUserById = (db: Knex, id: number) => db('users').where({ id }).first<UserRow | undefined>();

/** The user with the moment their second factor was enrolled (null without one): what every admin request checks. */
export const findUserWithSecondFactor = (db: Knex, id: number) =>
  db('users')
    .leftJoin('admin_second_factors', 'admin_second_factors.user_id', 'users.id')
    .where('users.id', id)
    .first<(UserRow & { second_factor_at: Date | null }) | undefined>(
      'users.id',
      'users.username',
      'users.password',
      'users.is_admin',
      'admin_second_factors.confirmed_at as second_factor_at',
    );

export async function recordLogin(db: Knex, id: number) {
  await db('users').where({ id }).update({ last_login_at: db.fn.now() });
}

/** Creates the user, or updates the password and admin flag of an existing one. */
export async function upsertUser(db: Knex, user: { username: string; passwordHash: string; isAdmin: boolean }) {
  const existing = await findUserByUsername(db, user.username);
  if (existing) {
    await db('users').where({ id: existing.id }).update({ password: user.passwordHash, is_admin: user.isAdmin });
    return { id: existing.id, created: false };
  }
  const [row] = await db('users')
    .insert({ username: user.username, password: user.passwordHash, is_admin: user.isAdmin })
    .returning<{ id: number }[]>('id');
  return { id: row!.id, created: true };
}
