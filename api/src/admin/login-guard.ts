import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { adminMessages } from '@guida/shared/messages';
import { AppError, serviceUnavailable } from '../errors';
import { createRateLimit } from '../http/rate-limit';
import type { KnownDevice } from './known-device';

const WINDOW_SECONDS = 15 * 60;
/** Attempts per client address from browsers that are not known devices: enough for a team behind one NAT. */
const ATTEMPTS_PER_CLIENT = 30;
/** Failures with one username from one client; then that client (only) is locked out of it. */
const FAILURES_PER_USERNAME_AND_CLIENT = 5;
/** Failures with one username from every unknown device together: guessing from many addresses stops here. */
const FAILURES_PER_USERNAME = 20;
/** A known device fails this many times freely, then waits 2 s, 4 s, 8 s… (at most 15 minutes) before each attempt. */
const DEVICE_FREE_FAILURES = 5;
const DEVICE_FIRST_WAIT_MS = 2_000;
const DEVICE_MAX_WAIT_MS = 15 * 60_000;
/** A device's failures are forgotten after a day without attempts. */
const DEVICE_MEMORY_MS = 24 * 3_600_000;

/**
 * One atomic step per attempt of a known device: refuse while its wait runs, else count
 * the attempt as a failure now (before the password is checked, so parallel attempts
 * cannot slip through together) and set the wait before the next one. A success deletes
 * the key. Answers the milliseconds still to wait, 0 when the attempt may go ahead.
 */
const DEVICE_ATTEMPT = `
local state = redis.call('HMGET', KEYS[1], 'failures', 'next')
local now = tonumber(ARGV[1])
local nextAt = tonumber(state[2]) or 0
if now < nextAt then return nextAt - now end
local failures = (tonumber(state[1]) or 0) + 1
local free, first, most = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local wait = 0
if failures > free then wait = math.min(first * 2 ^ (failures - free - 1), most) end
redis.call('HSET', KEYS[1], 'failures', failures, 'next', now + wait)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 0
`;

const refused = (retryAfterSeconds: number | undefined) =>
  new AppError(429, 'rate_limited', adminMessages.tooManyAttempts, { retryAfterSeconds: retryAfterSeconds ?? 60 });

/** A limit's 429 with the login's own message. */
async function asLoginRefusal(operation: Promise<void>) {
  try {
    await operation;
  } catch (error) {
    if (error instanceof AppError && error.status === 429) throw refused(error.details.retryAfterSeconds);
    throw error;
  }
}

/** Usernames are whatever strangers type: Redis keys hold a digest of them, not the text. */
const usernameKey = (username: string) =>
  createHash('sha256').update(username.toLowerCase()).digest('base64url').slice(0, 22);

/**
 * Who may try a password now. Every attempt is counted before the password is checked
 * and given back when it was right, so parallel guesses cannot all pass one check.
 *
 * - A browser that is not a known device: 30 attempts per client per 15 minutes; 5
 *   failures per username and client lock that client (only) out of the username; 20
 *   failures per username from all such browsers together stop guessing from many
 *   addresses.
 * - A known device of the user (known-device.ts) is not subject to any of these, which
 *   strangers can spend: its own failures only slow it down, with a wait that doubles, so
 *   the admin always gets in with the right password, and a stolen device cookie still
 *   cannot guess fast.
 */
export function createLoginGuard(options: { redis: Redis; prefix: string }) {
  const limit = (name: string, points: number) =>
    createRateLimit({
      redis: options.redis,
      keyPrefix: `${options.prefix}:rl:admin-${name}`,
      points,
      durationSeconds: WINDOW_SECONDS,
    });
  const attemptsPerClient = limit('login-ip', ATTEMPTS_PER_CLIENT);
  const failuresPerUsernameAndClient = limit('login-user-client', FAILURES_PER_USERNAME_AND_CLIENT);
  const failuresPerUsername = limit('login-user', FAILURES_PER_USERNAME);

  async function admitKnownDevice(device: KnownDevice) {
    const key = `${options.prefix}:admin-login-device:${device.userId}:${device.deviceId}`;
    let waitMs: number;
    try {
      waitMs = Number(
        await options.redis.eval(
          DEVICE_ATTEMPT,
          1,
          key,
          Date.now(),
          DEVICE_FREE_FAILURES,
          DEVICE_FIRST_WAIT_MS,
          DEVICE_MAX_WAIT_MS,
          DEVICE_MEMORY_MS,
        ),
      );
    } catch {
      throw serviceUnavailable();
    }
    if (waitMs > 0) {
      throw new AppError(429, 'rate_limited', adminMessages.loginSlowedDown, {
        retryAfterSeconds: Math.ceil(waitMs / 1000),
      });
    }
    return async () => {
      await options.redis.del(key).catch(() => undefined);
    };
  }

  async function admitStranger(username: string, client: string) {
    const pair = `${usernameKey(username)}:${client}`;
    await asLoginRefusal(failuresPerUsernameAndClient.consume(pair));
    try {
      await asLoginRefusal(failuresPerUsername.consume(usernameKey(username)));
    } catch (error) {
      await failuresPerUsernameAndClient.refund(pair);
      throw error;
    }
    return async () => {
      await failuresPerUsernameAndClient.refund(pair);
      await failuresPerUsername.refund(usernameKey(username));
    };
  }

  return {
    /** Counts an attempt of a browser that is not a known device against its client's budget. */
    countClient: (client: string) => asLoginRefusal(attemptsPerClient.consume(client)),

    /**
     * Counts this attempt as a failure, or refuses it (429) when its budget is spent or
     * its wait runs. Call the answer once the password proved right: it gives the
     * attempt back (a known device's failures are then forgotten).
     */
    admit(attempt: { username: string; client: string; device: KnownDevice | null }): Promise<() => Promise<void>> {
      return attempt.device ? admitKnownDevice(attempt.device) : admitStranger(attempt.username, attempt.client);
    },
  };
}
