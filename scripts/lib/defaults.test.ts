import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commonEnv } from '@guida/shared/config';
import { DEFAULT_DATABASE_URL, DEFAULT_PORT, DEFAULT_REDIS_URL } from './defaults.mjs';
import { apiEnvSchema } from '../../api/src/config';

describe('set-up script defaults', () => {
  it('match the configuration defaults of the processes', () => {
    const common = z.object(commonEnv).parse({});
    expect(DEFAULT_DATABASE_URL).toBe(common.DATABASE_URL);
    expect(DEFAULT_REDIS_URL).toBe(common.REDIS_URL);
    expect(Number(DEFAULT_PORT)).toBe(apiEnvSchema.parse({ SESSION_SECRET: 'x'.repeat(32) }).PORT);
  });
});
