import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@guida/testing/services';
import { withTimeout } from './with-timeout';

const redis = new Redis(testRedisUrl(), { lazyConnect: true });
afterAll(() => redis.disconnect());

/** Keeps the event loop busy, as a long task of a loaded process does. */
function stall(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe('withTimeout', () => {
  it('gives the answer when it comes in time', async () => {
    await expect(withTimeout(Promise.resolve('PONG'), 50)).resolves.toBe('PONG');
  });

  it('rejects, naming what did not answer, when no answer comes', async () => {
    await expect(withTimeout(new Promise(() => undefined), 20, 'Redis')).rejects.toThrow('Redis did not answer within 20 ms');
  });

  it('takes a reply that arrived while the process was stalled past the deadline', async () => {
    await redis.connect();
    // Redis answers within a millisecond, while this process is busy: the reply waits in
    // the socket when the timer is already due.
    const ping = withTimeout(redis.ping(), 50, 'Redis');
    stall(500);
    await expect(ping).resolves.toBe('PONG');
  });
});
