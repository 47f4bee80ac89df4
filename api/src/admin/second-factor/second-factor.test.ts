import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '@guida/shared/messages';
import type { AdminLoginAnswer } from '@guida/shared/schemas/admin';
import { authenticatorCode } from '@guida/testing/totp';
import { ADMIN_PASSWORD, authenticatorOf, cookiesOf, createUser, signIn } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

/** The API's clock, which these tests move instead of waiting for codes to change. */
let clock = Date.UTC(2026, 11, 3, 9, 0, 5);
const STEP = 30_000;

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi({}, { now: () => new Date(clock) });
});
afterAll(async () => {
  await api.close();
});

type Answer = AdminLoginAnswer;

/** A browser of its own (cookies kept) from `ip`. */
function browser(ip: string) {
  const agent = request.agent(api.app);
  const post = (path: string, body: object) => agent.post(`/api/admin/${path}`).set('X-Forwarded-For', ip).send(body);
  return {
    agent,
    password: (username: string, password = ADMIN_PASSWORD) => post('login', { username, password }),
    code: (code: string) => post('login/second-factor', { code }),
    enrol: (code: string) => post('login/enrolment', { code }),
  };
}

/** A new admin, enrolled by a first login: its secret and its recovery codes. */
async function enrolledAdmin(ip = '192.0.2.10') {
  const user = await createUser(api);
  const { answer } = await signIn(api, user, { ip });
  return { user, secret: authenticatorOf(api, user)!.secret, recoveryCodes: answer.recoveryCodes! };
}

const wrongCodeOf = (secret: string) => String((Number(authenticatorCode(secret, clock)) + 500_000) % 1_000_000).padStart(6, '0');

describe('enrolment at the first login', () => {
  it('asks a new admin to enrol after the password, with a QR code and the secret as text, and opens no session yet', async () => {
    const user = await createUser(api);
    const tab = browser('192.0.2.1');
    const first = await tab.password(user.username);
    expect(first.status).toBe(200);
    const answer = first.body as Extract<Answer, { step: 'enrol' }>;
    expect(answer.step).toBe('enrol');
    expect(answer.enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(answer.enrolment.otpauthUri);
    expect(uri.searchParams.get('secret')).toBe(answer.enrolment.secret);
    expect(decodeURIComponent(uri.pathname)).toBe(`/Guida Finanza:${user.username}@${new URL(api.config.PUBLIC_BASE_URL).host}`);
    // A QR code drawn here: an SVG image (no script, nothing fetched from elsewhere).
    const [, base64] = answer.enrolment.qrCode.split('data:image/svg+xml;base64,');
    const svg = Buffer.from(base64!, 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox=/);
    expect(svg).not.toMatch(/<script|href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);

    // Password verified, second factor pending: only the pending cookie, no session, no device.
    expect(cookiesOf(first).map((cookie) => cookie.split('=')[0])).toEqual(['guida_admin_pending']);
    expect((await tab.agent.get('/api/admin/session')).status).toBe(401);

    // A wrong code confirms nothing.
    const wrong = await tab.enrol(wrongCodeOf(answer.enrolment.secret));
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe(adminMessages.wrongCode);
    expect((await api.db('admin_second_factors').where({ user_id: user.id }).first()).confirmed_at).toBeNull();

    const confirmed = await tab.enrol(authenticatorCode(answer.enrolment.secret, clock));
    expect(confirmed.status).toBe(200);
    const signedIn = confirmed.body as Extract<Answer, { step: 'signed-in' }>;
    expect(signedIn.step).toBe('signed-in');
    expect(signedIn.recoveryCodes).toHaveLength(10);
    expect(new Set(signedIn.recoveryCodes).size).toBe(10);
    for (const code of signedIn.recoveryCodes!) expect(code).toMatch(/^[a-z2-7]{6}(-[a-z2-7]{6}){3}$/);
    expect((await tab.agent.get('/api/admin/session')).status).toBe(200);
    expect(await api.db('admin_audit_log').where({ user_id: user.id, action: 'enrol_second_factor' })).toHaveLength(1);

    // Stored: the secret encrypted, the recovery codes as digests; neither readable.
    const row = await api.db('admin_second_factors').where({ user_id: user.id }).first();
    expect(row.secret_ciphertext).toMatch(/^v1\./);
    const stored = JSON.stringify([row, await api.db('admin_recovery_codes').where({ user_id: user.id })]);
    expect(stored).not.toContain(answer.enrolment.secret);
    for (const code of signedIn.recoveryCodes!) expect(stored).not.toContain(code.replace(/-/g, '').slice(0, 12));

    // Never answered again: the status says since when, and how many codes are left.
    const status = await tab.agent.get('/api/admin/second-factor');
    expect(status.body).toEqual({ required: true, enrolledAt: expect.any(String), recoveryCodesLeft: 10 });
    clock += STEP;
    const later = await browser('192.0.2.1').password(user.username);
    expect(later.body).toEqual({ step: 'second-factor' });
  });

  it('gives a new secret at each login until one is confirmed', async () => {
    const user = await createUser(api);
    const first = (await browser('192.0.2.2').password(user.username)).body.enrolment.secret;
    const tab = browser('192.0.2.2');
    const second = (await tab.password(user.username)).body.enrolment.secret;
    expect(second).not.toBe(first);
    expect((await tab.enrol(authenticatorCode(first, clock))).status).toBe(401);
    expect((await tab.enrol(authenticatorCode(second, clock))).status).toBe(200);
  });
});

describe('the login’s second step', () => {
  it('signs in with a current code of the app, one step either side, never with one two steps off', async () => {
    const { user, secret } = await enrolledAdmin();
    clock += 10 * STEP;
    for (const [offset, status] of [
      [-2 * STEP, 401],
      [2 * STEP, 401],
      [-STEP, 200],
      [0, 200],
      [STEP, 200],
    ] as const) {
      const tab = browser('192.0.2.11');
      await tab.password(user.username);
      expect((await tab.code(authenticatorCode(secret, clock + offset))).status, `offset ${offset}`).toBe(status);
    }
  });

  it('accepts each code once: the same code again, or an earlier one, is refused (replay)', async () => {
    const { user, secret } = await enrolledAdmin();
    clock += 10 * STEP;
    const code = authenticatorCode(secret, clock);
    const tab = browser('192.0.2.12');
    await tab.password(user.username);
    expect((await tab.code(code)).status).toBe(200);

    const replay = browser('192.0.2.13');
    await replay.password(user.username);
    const refused = await replay.code(code);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(adminMessages.wrongCode);
    expect((await replay.agent.get('/api/admin/session')).status).toBe(401);
    // The previous step's code is still in the window, but older than the one used.
    expect((await replay.code(authenticatorCode(secret, clock - STEP))).status).toBe(401);
    // Two logins at once with the same new code: one of them only.
    const [a, b] = [browser('192.0.2.14'), browser('192.0.2.15')];
    await a.password(user.username);
    await b.password(user.username);
    const next = authenticatorCode(secret, clock + STEP);
    const statuses = (await Promise.all([a.code(next), b.code(next)])).map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 401]);
    const failures = await api.db('admin_audit_log').where({ user_id: user.id, action: 'login_failure' }).pluck('details');
    expect(failures.map((details) => details.reason)).toContain('wrong_totp_code');
  });

  it('counts wrong codes as failed logins: five lock that client out of the username, even with the right code or password', async () => {
    const { user, secret } = await enrolledAdmin();
    clock += 10 * STEP;
    const tab = browser('198.51.100.20');
    await tab.password(user.username);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await tab.code(wrongCodeOf(secret))).status).toBe(401);
    }
    const locked = await tab.code(authenticatorCode(secret, clock));
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe(adminMessages.tooManyAttempts);
    expect((await tab.password(user.username)).status).toBe(429);
    // Another client is not locked by these.
    const elsewhere = browser('198.51.100.21');
    await elsewhere.password(user.username);
    expect((await elsewhere.code(authenticatorCode(secret, clock))).status).toBe(200);
  });

  it('counts wrong codes together with wrong passwords', async () => {
    const { user, secret } = await enrolledAdmin();
    clock += 10 * STEP;
    const tab = browser('198.51.100.25');
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await tab.password(user.username, 'Sbagliata!Password1')).status).toBe(401);
    await tab.password(user.username);
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await tab.code(wrongCodeOf(secret))).status).toBe(401);
    expect((await tab.code(authenticatorCode(secret, clock))).status).toBe(429);
  });

  it('slows a known device down on wrong codes instead of locking it', async () => {
    const user = await createUser(api);
    const { deviceCookie } = await signIn(api, user, { ip: '198.51.100.30' });
    const secret = authenticatorOf(api, user)!.secret;
    clock += 10 * STEP;
    const tab = browser('198.51.100.30');
    await tab.agent.post('/api/admin/login').set('Cookie', deviceCookie!).send({ username: user.username, password: ADMIN_PASSWORD });
    const code = (value: string) => tab.agent.post('/api/admin/login/second-factor').set('Cookie', deviceCookie!).send({ code: value });
    for (let attempt = 0; attempt < 6; attempt += 1) expect((await code(wrongCodeOf(secret))).status).toBe(401);
    const waiting = await code(authenticatorCode(secret, clock));
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toBe(adminMessages.loginSlowedDown);
  });

  it('refuses the second step without a pending login, after it was used, or once the password changed', async () => {
    const { user, secret } = await enrolledAdmin();
    clock += 10 * STEP;
    const stranger = browser('192.0.2.30');
    const none = await stranger.code(authenticatorCode(secret, clock));
    expect(none.status).toBe(401);
    expect(none.body.message).toBe(adminMessages.secondFactorExpired);

    const tab = browser('192.0.2.31');
    await tab.password(user.username);
    expect((await tab.code(authenticatorCode(secret, clock))).status).toBe(200);
    expect((await tab.code(authenticatorCode(secret, clock + STEP))).body.message).toBe(adminMessages.secondFactorExpired);

    await tab.password(user.username);
    await api.db('users').where({ id: user.id }).update({ password: 'changed-elsewhere' });
    expect((await tab.code(authenticatorCode(secret, clock + STEP))).body.message).toBe(adminMessages.secondFactorExpired);
  });
});

describe('recovery codes', () => {
  it('sign in once each, however typed, and say how many are left', async () => {
    const { user, recoveryCodes } = await enrolledAdmin();
    const tab = browser('192.0.2.40');
    await tab.password(user.username);
    const typed = ` ${recoveryCodes[0]!.toUpperCase().replace(/-/g, ' ')} `;
    const used = await tab.code(typed);
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ step: 'signed-in', recoveryCodesLeft: 9 });
    expect((await tab.agent.get('/api/admin/second-factor')).body.recoveryCodesLeft).toBe(9);
    const audit = await api.db('admin_audit_log').where({ user_id: user.id, action: 'use_recovery_code' });
    expect(audit.map((entry) => entry.details)).toEqual([{ recoveryCodesLeft: 9 }]);
    expect((await api.db('admin_audit_log').where({ user_id: user.id, action: 'login_success' }).orderBy('id')).at(-1).details).toEqual({
      knownDevice: false,
      secondFactor: 'recovery_code',
    });

    const again = browser('192.0.2.41');
    await again.password(user.username);
    expect((await again.code(recoveryCodes[0]!)).status).toBe(401);
    expect((await again.code('aaaaaa-bbbbbb-cccccc-dddddd')).status).toBe(401);
    expect((await again.code(recoveryCodes[1]!)).body.recoveryCodesLeft).toBe(8);
  });

  it('are regenerated from the dashboard against a current code: ten new ones, the old ones void', async () => {
    const { user, secret, recoveryCodes } = await enrolledAdmin();
    const signedIn = await signIn(api, user, { ip: '192.0.2.50' });
    const regenerate = (code: string) =>
      signedIn.agent.post('/api/admin/second-factor/recovery-codes').set('X-CSRF-Token', signedIn.csrfToken).send({ code });

    const wrong = await regenerate(wrongCodeOf(secret));
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ code: adminMessages.wrongCode });
    const empty = await regenerate('');
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ code: adminMessages.codeRequired });

    clock += 10 * STEP;
    const fresh = await regenerate(authenticatorCode(secret, clock));
    expect(fresh.status).toBe(200);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    expect(fresh.body.message).toBe(adminMessages.recoveryCodesRegenerated);
    expect(await api.db('admin_audit_log').where({ user_id: user.id, action: 'regenerate_recovery_codes' })).toHaveLength(1);

    const tab = browser('192.0.2.51');
    await tab.password(user.username);
    expect((await tab.code(recoveryCodes[2]!)).status).toBe(401);
    expect((await tab.code(fresh.body.recoveryCodes[0])).status).toBe(200);
  });
});

describe('admin:create --reset-second-factor', () => {
  it('forgets the second factor and ends the sessions; the password stays, the next login enrols again; audited', async () => {
    const { user } = await enrolledAdmin();
    const session = await signIn(api, user, { ip: '192.0.2.60' });
    expect((await session.agent.get('/api/admin/session')).status).toBe(200);

    const reset = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'api/src/admin/create-admin.ts', '--username', user.username, '--reset-second-factor'],
      { env: { PATH: process.env.PATH ?? '', DATABASE_URL: api.config.DATABASE_URL }, encoding: 'utf8', input: '' },
    );
    expect(reset.stdout + reset.stderr).toContain(`second factor of "${user.username}" reset`);
    expect(reset.status).toBe(0);

    const ended = await session.agent.get('/api/admin/session');
    expect(ended.status).toBe(401);
    expect(await api.db('admin_recovery_codes').where({ user_id: user.id })).toEqual([]);
    const [entry] = await api.db('admin_audit_log').where({ action: 'reset_second_factor', target_id: String(user.id) });
    expect(entry).toMatchObject({ username: '(admin:create)', user_id: user.id, target_type: 'user', details: { hadSecondFactor: true } });

    const again = await browser('192.0.2.61').password(user.username);
    expect(again.status).toBe(200);
    expect(again.body.step).toBe('enrol');
  }, 30_000);

  it('refuses to reset a user that does not exist', () => {
    const reset = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'api/src/admin/create-admin.ts', '--username', 'nessuno-qui', '--reset-second-factor'],
      { env: { PATH: process.env.PATH ?? '', DATABASE_URL: api.config.DATABASE_URL }, encoding: 'utf8', input: '' },
    );
    expect(reset.status).toBe(1);
    expect(reset.stderr).toContain('no user "nessuno-qui"');
  }, 30_000);
});

describe('ADMIN_SECOND_FACTOR=off (outside production)', () => {
  it('signs in with the password alone', async () => {
    const plain = await createTestApi({ ADMIN_SECOND_FACTOR: 'off' });
    try {
      const user = await createUser(plain);
      const agent = request.agent(plain.app);
      const answer = await agent.post('/api/admin/login').send({ username: user.username, password: ADMIN_PASSWORD });
      expect(answer.body).toMatchObject({ step: 'signed-in', session: { user: { id: user.id } } });
      expect((await agent.get('/api/admin/session')).status).toBe(200);
      expect((await agent.get('/api/admin/second-factor')).body).toEqual({ required: false, enrolledAt: null, recoveryCodesLeft: 0 });
    } finally {
      await plain.close();
    }
  });
});
