import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '@guida/shared/messages';
import { migrationConfig } from '@guida/migrations';
import { ADMIN_PASSWORD, createUser, signIn } from '../testing/admin-session';
import { createTestApi, type TestApi } from '../testing/test-api';
import { createLoginGuard } from './login-guard';
import { verificationSlots } from './password-hash';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

const WRONG = 'Sbagliata!Password1';

const login = (username: string, password: string, ip: string, cookie?: string) => {
  const post = request(api.app).post('/api/admin/login').set('X-Forwarded-For', ip);
  if (cookie) post.set('Cookie', cookie);
  return post.send({ username, password });
};

/** Signs in once from `ip` (both steps): the known-device cookie it leaves. */
async function knownDeviceOf(user: { id: number; username: string }, ip: string) {
  const { deviceCookie } = await signIn(api, user, { ip });
  return deviceCookie!;
}

describe('counting attempts', () => {
  it('counts before checking: of 12 parallel attempts on one username and client, 5 go ahead', async () => {
    const guard = createLoginGuard({ redis: api.deps.redis, prefix: `${api.prefix}:parallel` });
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, () => guard.admit({ username: 'parallelo', client: '192.0.2.50', device: null })),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(5);
    for (const attempt of attempts.filter((a) => a.status === 'rejected')) {
      expect((attempt as PromiseRejectedResult).reason).toMatchObject({ status: 429, message: adminMessages.tooManyAttempts });
    }
  });

  it('answers 12 parallel wrong guesses with at most 5 checks, then refuses that client even the right password', async () => {
    const user = await createUser(api);
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(user.username, WRONG, '192.0.2.60')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect([adminMessages.tooManyAttempts, adminMessages.loginBusy]).toContain(answer.body.message);
      expect(answer.headers['retry-after']).toBeDefined();
    }
    // Whatever got through, 5 failures are now counted for this client.
    for (let attempt = statuses.filter((s) => s === 401).length; attempt < 5; attempt += 1) {
      expect((await login(user.username, WRONG, '192.0.2.60')).status).toBe(401);
    }
    const locked = await login(user.username.toUpperCase(), ADMIN_PASSWORD, '192.0.2.60');
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe(adminMessages.tooManyAttempts);
  });

  it('gives a right password its attempt back: signing in does not use up the budget', async () => {
    const user = await createUser(api);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      expect((await login(user.username, ADMIN_PASSWORD, '192.0.2.70')).status).toBe(200);
    }
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(user.username, WRONG, '192.0.2.70')).status).toBe(401);
    }
    expect((await login(user.username, WRONG, '192.0.2.70')).status).toBe(429);
  });
});

describe('what strangers cannot do to the admin', () => {
  it('locks only the client that failed: the admin elsewhere signs in', async () => {
    const user = await createUser(api);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(user.username, WRONG, '198.51.100.1')).status).toBe(401);
    }
    expect((await login(user.username, ADMIN_PASSWORD, '198.51.100.1')).status).toBe(429);
    expect((await login(user.username, ADMIN_PASSWORD, '198.51.100.2')).status).toBe(200);
  });

  it('puts a whole IPv6 /64 on one key', async () => {
    const user = await createUser(api);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(user.username, WRONG, `2001:db8:1:2::${attempt + 1}`)).status).toBe(401);
    }
    expect((await login(user.username, ADMIN_PASSWORD, '2001:db8:1:2:ffff::9')).status).toBe(429);
    expect((await login(user.username, ADMIN_PASSWORD, '2001:db8:1:3::1')).status).toBe(200);
  });

  it('stops guessing from many addresses after 20 failures, but not the admin on a known device', async () => {
    const user = await createUser(api);
    const device = await knownDeviceOf(user, '203.0.113.200');
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await login(user.username, WRONG, `203.0.113.${attempt + 1}`)).status).toBe(401);
    }
    const stranger = await login(user.username, ADMIN_PASSWORD, '203.0.113.100');
    expect(stranger.status).toBe(429);
    expect(stranger.body.message).toBe(adminMessages.tooManyAttempts);

    // From another network too: the device, not the address, is what is known.
    const admin = await login(user.username, ADMIN_PASSWORD, '192.0.2.201', device);
    expect(admin.status).toBe(200);
    await signIn(api, user, { ip: '192.0.2.201', cookie: device });
    const audit = await api.db('admin_audit_log').where({ user_id: user.id, action: 'login_success' }).orderBy('id');
    expect(audit.at(-1).details).toEqual({ knownDevice: true, secondFactor: 'totp' });
  }, 30_000);

  it('slows a known device down instead of locking it, and lets the right password in once the wait is over', async () => {
    const user = await createUser(api);
    const device = await knownDeviceOf(user, '198.51.100.30');
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await login(user.username, WRONG, '198.51.100.30', device)).status).toBe(401);
    }
    const waiting = await login(user.username, ADMIN_PASSWORD, '198.51.100.30', device);
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toBe(adminMessages.loginSlowedDown);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // The wait has run out (moved into the past rather than waited for).
    const [key] = await api.deps.redis.keys(`${api.prefix}:admin-login-device:${user.id}:*`);
    await api.deps.redis.hset(key!, 'next', Date.now() - 1);
    expect((await login(user.username, ADMIN_PASSWORD, '198.51.100.30', device)).status).toBe(200);
    expect(await api.deps.redis.exists(key!)).toBe(0);
  });

  it('treats a forged or foreign device cookie as no device', async () => {
    const user = await createUser(api);
    const other = await createUser(api);
    const device = await knownDeviceOf(other, '198.51.100.40');
    const forged = device.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    for (const cookie of [forged, device]) {
      // 5 failures from one client lock it for `user`, whatever device cookie it shows.
      for (let attempt = 0; attempt < 5; attempt += 1) await login(user.username, WRONG, '198.51.100.41', cookie);
      expect((await login(user.username, ADMIN_PASSWORD, '198.51.100.41', cookie)).status).toBe(429);
    }
  });
});

describe('password checks at once', () => {
  it('refuses beyond the slots, keeps one for known devices, and frees a slot once', () => {
    const slots = verificationSlots(2, 1);
    const first = slots.tryAcquire(false)!;
    expect(slots.tryAcquire(false)).not.toBeNull();
    expect(slots.tryAcquire(false)).toBeNull();
    const reserved = slots.tryAcquire(true);
    expect(reserved).not.toBeNull();
    expect(slots.tryAcquire(true)).toBeNull();
    first();
    first();
    // Two held (one of them the reserved one): strangers wait, a known device does not.
    expect(slots.tryAcquire(false)).toBeNull();
    expect(slots.tryAcquire(true)).not.toBeNull();
  });
});

describe('sessions end on a password change', () => {
  it('signs every session of the user out when admin:create sets a new password, and forgets its devices', async () => {
    const user = await createUser(api);
    const first = await signIn(api, user, { ip: '192.0.2.80' });
    const second = await signIn(api, user, { ip: '192.0.2.81' });
    const sessions = [first.cookie, second.cookie];
    for (const cookie of sessions) {
      expect((await request(api.app).get('/api/admin/session').set('Cookie', cookie)).status).toBe(200);
    }

    const newPassword = 'Nuova!Chiave-Sicura-77';
    const changed = spawnSync(process.execPath, ['--import', 'tsx', 'api/src/admin/create-admin.ts', '--username', user.username], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: api.config.DATABASE_URL, ADMIN_PASSWORD: newPassword },
      encoding: 'utf8',
    });
    expect(changed.stdout + changed.stderr).toContain(`updated admin "${user.username}"`);

    for (const cookie of sessions) {
      const ended = await request(api.app).get('/api/admin/session').set('Cookie', cookie);
      expect(ended.status).toBe(401);
      expect(ended.body.message).toBe(adminMessages.signedOut);
    }
    expect((await login(user.username, ADMIN_PASSWORD, '192.0.2.82')).status).toBe(401);
    // The second factor stays: a new password is not a lost phone.
    const again = await signIn(api, user, { ip: '192.0.2.82', password: newPassword, cookie: first.deviceCookie });
    expect(again.answer.step).toBe('signed-in');
    const audit = await api.db('admin_audit_log').where({ user_id: user.id, action: 'login_success' }).orderBy('id');
    expect(audit.at(-1).details).toEqual({ knownDevice: false, secondFactor: 'totp' });
  }, 30_000);
});

describe('malformed cookies', () => {
  it('answers a session cookie that is not valid percent-encoding with 401, and still lets the admin sign in', async () => {
    const user = await createUser(api);
    const broken = 'guida_admin=%E0%A4%A; guida_admin_device=%ZZ';
    const session = await request(api.app).get('/api/admin/session').set('Cookie', broken);
    expect(session.status).toBe(401);
    expect(session.body.message).toBe(adminMessages.signedOut);
    expect((await request(api.app).post('/api/admin/logout').set('Cookie', broken)).status).toBe(204);
    expect((await login(user.username, ADMIN_PASSWORD, '192.0.2.90', broken)).status).toBe(200);
  });
});

describe('no personal data in the audit log', () => {
  it('stores a digest of an unknown username, never the text typed', async () => {
    const typed = 'mario.rossi@example.it';
    expect((await login(typed, ADMIN_PASSWORD, '192.0.2.95')).status).toBe(401);
    expect((await login('MARIO.ROSSI@example.it', WRONG, '192.0.2.96')).status).toBe(401);
    const rows = await api.db('admin_audit_log').where({ action: 'login_failure' }).orderBy('id', 'desc').limit(2);
    expect(JSON.stringify(rows)).not.toMatch(/mario|rossi/i);
    expect(rows[0].username).toMatch(/^unknown:[0-9a-f]{16}$/);
    // The same text, whatever its case, gives the same digest: attempts can still be told apart.
    expect(rows[0].username).toBe(rows[1].username);
  });

  it('removes search terms and typed usernames from entries written before (migration)', async () => {
    const admin = await createUser(api);
    const [search, typo] = await api
      .db('admin_audit_log')
      .insert([
        { user_id: admin.id, username: admin.username, action: 'export_leads_csv', details: { filters: { q: 'Zenobia', country: 'IT' } } },
        { user_id: null, username: 'zenobia.q@example.it', action: 'login_failure', details: { reason: 'unknown_user' } },
      ])
      .returning('id');
    // Run again on the test database, as on a deployed one.
    const name = '20261124202000_audit_log_without_personal_data';
    await api.db.migrate.down({ ...migrationConfig, name });
    await api.db.migrate.up({ ...migrationConfig, name });
    expect((await api.db('admin_audit_log').where({ id: search.id }).first()).details).toEqual({ filters: ['country', 'q'] });
    expect((await api.db('admin_audit_log').where({ id: typo.id }).first()).username).toBe('unknown:erased');
  });
});
