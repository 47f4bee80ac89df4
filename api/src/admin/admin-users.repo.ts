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
