import request from 'supertest';
import type { AdminLoginAnswer } from '@guida/shared/schemas/admin';
import { testAuthenticator, type TestAuthenticator } from '@guida/testing/totp';
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

/** The clock the API checks codes with (the test's, when it moves one). */
export const apiClock = (api: TestApi) => () => (api.deps.now?.() ?? new Date()).getTime();

/** Each admin's authenticator, from the secret their enrolment showed, so later logins can answer codes. */
const authenticators = new Map<string, TestAuthenticator>();
const authenticatorKey = (api: TestApi, userId: number) => `${api.prefix}:${userId}`;

/** The authenticator `user` enrolled (by a sign-in of this file); undefined before. */
export const authenticatorOf = (api: TestApi, user: { id: number }) => authenticators.get(authenticatorKey(api, user.id));

/** Keeps an enrolment's secret as the admin's app would. */
export function rememberEnrolment(api: TestApi, user: { id: number }, secret: string) {
  const app = testAuthenticator(secret, { clock: apiClock(api) });
  authenticators.set(authenticatorKey(api, user.id), app);
  return app;
}

/** "name=value" of each cookie an answer sets. */
export const cookiesOf = (response: request.Response) =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]!);

/**
 * Both login steps as a browser takes them, with a supertest agent (it keeps the cookies):
 * the password, then, on the first login, the enrolment (the secret kept for later logins,
 * the code computed from it), or a code of the app. With ADMIN_SECOND_FACTOR=off the
 * password alone signs in.
 */
export async function signIn(
  api: TestApi,
  user: { id: number; username: string },
  options: { agent?: ReturnType<typeof request.agent>; ip?: string; password?: string; cookie?: string } = {},
) {
  const agent = options.agent ?? request.agent(api.app);
  const post = (path: string, body: object) => {
    const call = agent.post(`/api/admin/${path}`);
    if (options.ip) call.set('X-Forwarded-For', options.ip);
    // A cookie the browser already had (a known device): sent besides the agent's own.
    if (options.cookie) call.set('Cookie', options.cookie);
    return call.send(body);
  };
  const password = await post('login', { username: user.username, password: options.password ?? ADMIN_PASSWORD });
  if (password.status !== 200) throw new Error(`login failed: ${password.status} ${JSON.stringify(password.body)}`);
  const step = password.body as AdminLoginAnswer;
  let final = password;
  if (step.step === 'enrol') {
    const app = rememberEnrolment(api, user, step.enrolment.secret);
    final = await post('login/enrolment', { code: await app.nextCode() });
  } else if (step.step === 'second-factor') {
    const app = authenticatorOf(api, user);
    if (!app) throw new Error(`no authenticator for ${user.username}: sign in once to enrol`);
    final = await post('login/second-factor', { code: await app.nextCode() });
  }
  if (final.status !== 200) throw new Error(`second step failed: ${final.status} ${JSON.stringify(final.body)}`);
  const answer = final.body as Extract<AdminLoginAnswer, { step: 'signed-in' }>;
  const cookies = cookiesOf(final);
  return {
    agent,
    answer,
    /** The answer of the step that signed in. */
    response: final,
    csrfToken: answer.session.csrfToken,
    /** The session cookie, "name=value". */
    cookie: cookies.find((cookie) => /^(__Host-)?guida_admin=/.test(cookie))!,
    /** The known-device cookie, "name=value". */
    deviceCookie: cookies.find((cookie) => /^(__Host-)?guida_admin_device=/.test(cookie)),
  };
}

/**
 * A supertest agent signed in as a new admin (enrolled on the way): it keeps the session
 * cookie, and `csrfToken` goes in the X-CSRF-Token header of writes.
 */
export async function signInAsAdmin(api: TestApi) {
  const user = await createUser(api);
  return { ...(await signIn(api, user)), user };
}
