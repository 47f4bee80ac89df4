import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentMessages } from '@guida/shared/experiments';
import { adminMessages } from '@guida/shared/messages';
import { authenticatorCode } from '@guida/testing/totp';
import { ADMIN_PASSWORD, cookiesOf, createUser, signIn, signInAsAdmin } from '../testing/admin-session';
import { createTestApi, type TestApi } from '../testing/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

const login = (username: string, password: string, ip = '203.0.113.7') =>
  request(api.app).post('/api/admin/login').set('X-Forwarded-For', ip).send({ username, password });

const sessionKeys = () => api.deps.redis.keys(`${api.prefix}:admin-session:*`);

const ADMIN_ROUTES: [method: 'get' | 'post', path: string][] = [
  ['get', '/api/admin/session'],
  ['get', '/api/admin/leads'],
  ['get', '/api/admin/leads/export.csv'],
  ['get', '/api/admin/leads/1'],
  ['post', '/api/admin/leads/1/resend-sms'],
  ['post', '/api/admin/leads/1/redeliver-crm'],
  ['get', '/api/admin/queues'],
  ['get', '/api/admin/queues/sms/failed'],
  ['post', '/api/admin/queues/sms/jobs/1/retry'],
  ['get', '/api/admin/funnel'],
  ['get', '/api/admin/consents'],
  ['get', '/api/admin/data-requests'],
  ['post', '/api/admin/data-requests/1/process'],
  ['get', '/api/admin/consent-history?email=a@example.it'],
  ['post', '/api/admin/leads/1/rectify'],
  ['get', '/api/admin/configuration'],
  ['get', '/api/admin/overview'],
  ['get', '/api/admin/experiments'],
  ['post', '/api/admin/experiments/nessuno/keep/a'],
  ['get', '/api/admin/alerts'],
  ['get', '/api/admin/second-factor'],
  ['post', '/api/admin/second-factor/recovery-codes'],
];

describe('admin login', () => {
  it('signs an admin in with a session cookie that is httpOnly and SameSite=Strict, and audits it', async () => {
    const user = await createUser(api);
    const { answer, response } = await signIn(api, user, { ip: '203.0.113.7' });
    expect(answer.session).toEqual({
      user: { id: user.id, username: user.username, isAdmin: true },
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
      expiresAt: expect.any(String),
    });
    const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((c) => c.startsWith('guida_admin='))!;
    expect(cookie).toMatch(/^guida_admin=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(response.headers['cache-control']).toBe('no-store');

    const audit = await api.db('admin_audit_log').where({ user_id: user.id, action: 'login_success' });
    expect(audit).toHaveLength(1);
    expect(audit[0].ip_address).toBe('203.0.113.0');
    expect((await api.db('users').where({ id: user.id }).first()).last_login_at).toBeInstanceOf(Date);
  });

  it('answers a wrong password, an unknown user and a non-admin alike, with a generic 401', async () => {
    const admin = await createUser(api);
    const plain = await createUser(api, { isAdmin: false });
    for (const [username, password] of [
      [admin.username, 'Sbagliata!Password1'],
      ['nessuno-con-questo-nome', ADMIN_PASSWORD],
      [plain.username, ADMIN_PASSWORD],
    ] as const) {
      const response = await login(username, password, '198.51.100.9');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: adminMessages.invalidCredentials });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const reasons = await api.db('admin_audit_log').where({ action: 'login_failure' }).pluck('details');
    expect(reasons.map((details) => details.reason)).toEqual(
      expect.arrayContaining(['wrong_password', 'unknown_user', 'not_admin']),
    );
  });

  it('refuses an empty form with Italian field messages', async () => {
    const response = await login('', '');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual({ username: 'Inserisci il nome utente', password: 'Inserisci la password' });
  });

  it('limits attempts per address to 30 in 15 minutes, whatever the usernames', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      statuses.push((await login(`sconosciuto${attempt}`, 'Sbagliata!Password1', '192.0.2.99')).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  }, 30_000);

  it('gives a new session id at every login (rotation): the old cookie stops working', async () => {
    const first = await signInAsAdmin(api);
    const again = await signIn(api, first.user, { agent: first.agent });
    expect(again.cookie).not.toBe(first.cookie);
    expect((await request(api.app).get('/api/admin/session').set('Cookie', first.cookie)).status).toBe(401);
    expect((await first.agent.get('/api/admin/session')).status).toBe(200);
  });

  it('uses a Secure __Host- cookie when the site is served over https', async () => {
    const secureApi = await createTestApi({ PUBLIC_BASE_URL: 'https://guida.example.it' });
    try {
      const user = await createUser(secureApi);
      const response = await request(secureApi.app)
        .post('/api/admin/login')
        .send({ username: user.username, password: ADMIN_PASSWORD });
      // The pending login's cookie, then the session's: both __Host-, Secure, path=/.
      const pending = String(response.headers['set-cookie']);
      expect(pending).toMatch(/^__Host-guida_admin_pending=/);
      expect(pending).toContain('Secure');
      expect(pending).toContain('Path=/');
      // supertest keeps no Secure cookie over plain http: the browser's cookie is sent by hand.
      const enrolled = await request(secureApi.app)
        .post('/api/admin/login/enrolment')
        .set('Cookie', cookiesOf(response))
        .send({ code: authenticatorCode(response.body.enrolment.secret, Date.now()) });
      expect(enrolled.status).toBe(200);
      const session = ([] as string[]).concat(enrolled.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith('__Host-guida_admin='));
      expect(session).toContain('Secure');
      expect(session).toContain('Path=/');
    } finally {
      await secureApi.close();
    }
  });
});

describe('admin sessions', () => {
  it('every admin route answers 401 with an Italian message without a session', async () => {
    for (const [method, path] of ADMIN_ROUTES) {
      const response = await request(api.app)[method](path);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.message).toBe(adminMessages.signedOut);
    }
  });

  it('refuses the pending login (password verified, second factor not yet) on every admin route with 401', async () => {
    const user = await createUser(api);
    // First login (enrolment pending), then a later one (code pending): neither opens anything.
    const enrolling = request.agent(api.app);
    expect((await enrolling.post('/api/admin/login').send({ username: user.username, password: ADMIN_PASSWORD })).body.step).toBe('enrol');
    await signIn(api, user);
    const verifying = request.agent(api.app);
    expect((await verifying.post('/api/admin/login').send({ username: user.username, password: ADMIN_PASSWORD })).body.step).toBe(
      'second-factor',
    );
    for (const agent of [enrolling, verifying]) {
      for (const [method, path] of ADMIN_ROUTES) {
        const response = await agent[method](path);
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(response.body.message).toBe(adminMessages.signedOut);
      }
    }
    // Nor does its cookie under the session's name.
    const [pending] = (await verifying.post('/api/admin/login').send({ username: user.username, password: ADMIN_PASSWORD })).headers[
      'set-cookie'
    ] as unknown as string[];
    const asSession = pending!.split(';')[0]!.replace('guida_admin_pending=', 'guida_admin=');
    expect((await request(api.app).get('/api/admin/session').set('Cookie', asSession)).status).toBe(401);
  });

  it('every admin route answers 403 once the account is no longer an admin', async () => {
    const { agent, user, csrfToken } = await signInAsAdmin(api);
    await api.db('users').where({ id: user.id }).update({ is_admin: false });
    for (const [method, path] of ADMIN_ROUTES) {
      const response = await agent[method](path).set('X-CSRF-Token', csrfToken);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.message).toBe(adminMessages.forbidden);
    }
  });

  it('ends a session left idle (the Redis key expired) and one past its absolute limit', async () => {
    const idle = await signInAsAdmin(api);
    const before = new Set(await sessionKeys());
    const active = await signInAsAdmin(api);
    const activeKey = (await sessionKeys()).find((key) => !before.has(key))!;
    await api.deps.redis.del([...before]);
    expect((await idle.agent.get('/api/admin/session')).status).toBe(401);

    expect((await active.agent.get('/api/admin/session')).status).toBe(200);
    const stored = JSON.parse((await api.deps.redis.get(activeKey))!);
    await api.deps.redis.set(activeKey, JSON.stringify({ ...stored, expiresAt: Date.now() - 1000 }), 'EX', 600);
    const expired = await active.agent.get('/api/admin/session');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe(adminMessages.signedOut);
    expect(await api.deps.redis.exists(activeKey)).toBe(0);
  });

  it('renews the idle expiry on use, never beyond the configured idle time', async () => {
    const before = new Set(await sessionKeys());
    const { agent } = await signInAsAdmin(api);
    const key = (await sessionKeys()).find((candidate) => !before.has(candidate))!;
    await api.deps.redis.expire(key, 5);
    await agent.get('/api/admin/session');
    const ttl = await api.deps.redis.ttl(key);
    expect(ttl).toBeGreaterThan(5);
    expect(ttl).toBeLessThanOrEqual(api.config.ADMIN_IDLE_MINUTES * 60);
  });

  it('logs out: the cookie is cleared, the session is gone, the logout is audited', async () => {
    const { agent, user } = await signInAsAdmin(api);
    const response = await agent.post('/api/admin/logout');
    expect(response.status).toBe(204);
    expect(String(response.headers['set-cookie'])).toMatch(/guida_admin=;.*Expires=Thu, 01 Jan 1970/);
    expect((await agent.get('/api/admin/session')).status).toBe(401);
    expect(await api.db('admin_audit_log').where({ user_id: user.id, action: 'logout' })).toHaveLength(1);
  });
});

describe('CSRF protection of admin writes', () => {
  it('refuses a write without the token, with a wrong token, or from another origin', async () => {
    const { agent, csrfToken } = await signInAsAdmin(api);
    const writes = [
      ['/api/admin/leads/999999/resend-sms', adminMessages.leadNotFound],
      ['/api/admin/experiments/nessuno/keep/a', experimentMessages.unknownExperiment],
    ] as const;
    for (const [path, notFound] of writes) {
      const missing = await agent.post(path);
      expect(missing.status, path).toBe(403);
      expect(missing.body.message, path).toBe(adminMessages.csrf);
      expect((await agent.post(path).set('X-CSRF-Token', `${csrfToken.slice(0, -1)}x`)).status, path).toBe(403);
      expect(
        (await agent.post(path).set('X-CSRF-Token', csrfToken).set('Origin', 'https://attacker.example')).status,
        path,
      ).toBe(403);
      // A form posted from another site: no custom header, a foreign Origin, the cookie if the browser sent it.
      const crossSite = await agent
        .post(path)
        .set('Origin', 'https://attacker.example')
        .set('Sec-Fetch-Site', 'cross-site')
        .type('form')
        .send('winner=a');
      expect(crossSite.status, path).toBe(403);
      // With the token, the request goes through to the route (this lead or experiment does not exist).
      const allowed = await agent.post(path).set('X-CSRF-Token', csrfToken);
      expect(allowed.status, path).toBe(404);
      expect(allowed.body.message, path).toBe(notFound);
    }
  });

  it('refuses a login posted from another site', async () => {
    const user = await createUser(api);
    const response = await request(api.app)
      .post('/api/admin/login')
      .set('Origin', 'https://attacker.example')
      .send({ username: user.username, password: ADMIN_PASSWORD });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/admin/configuration', () => {
  it('says whether leads reach a CRM, from CRM_WEBHOOK_URL', async () => {
    const { agent } = await signInAsAdmin(api);
    expect((await agent.get('/api/admin/configuration')).body).toEqual({ crmConfigured: false });
    const withCrm = await createTestApi({ CRM_WEBHOOK_URL: 'https://crm.example/hook' });
    try {
      const signedIn = await signInAsAdmin(withCrm);
      expect((await signedIn.agent.get('/api/admin/configuration')).body).toEqual({ crmConfigured: true });
    } finally {
      await withCrm.close();
    }
  });
});

describe('idle sessions (ADMIN_IDLE_MINUTES, default 30)', () => {
  const MINUTE = 60_000;
  let clock = Date.now();
  let timed: TestApi;
  beforeAll(async () => {
    timed = await createTestApi({}, { now: () => new Date(clock) });
  });
  afterAll(async () => {
    await timed.close();
  });
  const poll = (agent: ReturnType<typeof request.agent>, path = '/api/admin/alerts') =>
    agent.get(path).set('X-Admin-Background', '1');

  it('ends a session polled every few seconds after 30 minutes without anything the admin did', async () => {
    expect(timed.config.ADMIN_IDLE_MINUTES).toBe(30);
    const { agent } = await signInAsAdmin(timed);
    for (let minutes = 5; minutes < 30; minutes += 5) {
      clock += 5 * MINUTE;
      expect((await poll(agent)).status, `poll after ${minutes} minutes`).toBe(200);
      expect((await poll(agent, '/api/admin/session')).status).toBe(200);
    }
    clock += 5 * MINUTE;
    const ended = await poll(agent);
    expect(ended.status).toBe(401);
    expect(ended.body.message).toBe(adminMessages.signedOut);
    // Gone for good: a request of the admin's own does not bring it back.
    expect((await agent.get('/api/admin/session')).status).toBe(401);
  });

  it('counts what the admin does: a request without the mark renews it, whatever the polls', async () => {
    const { agent } = await signInAsAdmin(timed);
    clock += 20 * MINUTE;
    expect((await agent.get('/api/admin/leads')).status).toBe(200);
    clock += 25 * MINUTE;
    expect((await poll(agent)).status).toBe(200);
    clock += 4 * MINUTE;
    expect((await poll(agent)).status).toBe(200);
    clock += 1 * MINUTE;
    expect((await poll(agent)).status).toBe(401);
  });

  it('takes any value of the mark as a poll: a forged or odd header can only end a session sooner', async () => {
    const { agent } = await signInAsAdmin(timed);
    for (const value of ['0', 'false', '', 'no']) {
      clock += 9 * MINUTE;
      const answer = await agent.get('/api/admin/session').set('X-Admin-Background', value);
      if (value === 'no') expect(answer.status).toBe(401);
      else expect(answer.status, JSON.stringify(value)).toBe(200);
    }
  });
});
