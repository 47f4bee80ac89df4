import request from 'supertest';
import { hashPassword } from '../admin/password-hash';
import { upsertUser } from '../admin/admin-users.repo';
import type { TestApi } from './test-api';

export const ADMIN_PASSWORD = 'Corretta!Cavallo42';

let counter = 0;

/** A user in the test database (an admin unless said otherwise), with a unique name. */
export async function createUser(api: TestApi, options: { isAdmin?: boolean; username?: string } = {}) {
  counter += 1;
  const username = options.username ?? `operatore${counter}`;
  const { id } = await upsertUser(api.db, {
    username,
    passwordHash: await hashPassword(ADMIN_PASSWORD),
    isAdmin: options.isAdmin ?? true,
  });
  return { id, username };
}

/**
 * A supertest agent signed in as a new admin: it keeps the session cookie, and `csrfToken`
 * goes in the X-CSRF-Token header of writes.
 */
export async function signInAsAdmin(api: TestApi) {
  const user = await createUser(api);
  const agent = request.agent(api.app);
  const response = await agent.post('/api/admin/login').send({ username: user.username, password: ADMIN_PASSWORD });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { agent, user, csrfToken: response.body.csrfToken as string, cookie: response.headers['set-cookie'] };
}
