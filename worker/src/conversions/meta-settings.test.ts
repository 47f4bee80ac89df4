import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@guida/shared/config';
import { workerEnvSchema } from '../config';
import { metaConversionsSettings } from './meta-settings';

const PIXEL = '1234567890123';
const TOKEN = 'EAAGm0PX4ZCpsBAKZBtestZBtokenZA1234567890';
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_BASE_URL: 'https://guida.example.it',
  LINK_TOKEN_SECRET: 'x'.repeat(32),
  SUPPRESSION_HASH_SECRET: 'y'.repeat(32),
};

const problems = (env: Record<string, string>) => {
  try {
    parseEnv(workerEnvSchema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('the Meta Conversions API settings', () => {
  it('are off by default, on with both the pixel id and the token, with Graph at graph.facebook.com', () => {
    expect(metaConversionsSettings(parseEnv(workerEnvSchema, {}))).toBeNull();
    const config = parseEnv(workerEnvSchema, { META_PIXEL_ID: PIXEL, META_CAPI_ACCESS_TOKEN: TOKEN });
    expect(metaConversionsSettings(config)).toEqual({
      graphApiUrl: 'https://graph.facebook.com',
      pixelId: PIXEL,
      accessToken: TOKEN,
      testEventCode: null,
      publicBaseUrl: 'http://localhost:3000',
    });
  });

  it('refuse one without the other, naming the missing one', () => {
    expect(problems({ META_PIXEL_ID: PIXEL })).toEqual([expect.stringMatching(/^META_CAPI_ACCESS_TOKEN: set META_PIXEL_ID and META_CAPI_ACCESS_TOKEN together/)]);
    expect(problems({ META_CAPI_ACCESS_TOKEN: TOKEN })).toEqual([expect.stringMatching(/^META_PIXEL_ID: set META_PIXEL_ID and/)]);
  });

  it('say what is wrong with a bad value without ever quoting the token', () => {
    const found = problems({ META_PIXEL_ID: 'px-123', META_CAPI_ACCESS_TOKEN: 'EAA token with spaces', META_TEST_EVENT_CODE: 'TEST 1' });
    expect(found.join('\n')).toMatch(/META_PIXEL_ID: must be the pixel \(dataset\) id/);
    expect(found.join('\n')).toMatch(/META_CAPI_ACCESS_TOKEN: must be the access token from Events Manager/);
    expect(found.join('\n')).toMatch(/META_TEST_EVENT_CODE: must be the test code/);
    expect(found.join('\n')).not.toContain('EAA token');
  });

  it('take an http Graph URL only for a test server on this machine, outside production', () => {
    const meta = { META_PIXEL_ID: PIXEL, META_CAPI_ACCESS_TOKEN: TOKEN };
    for (const url of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']) {
      expect(problems({ ...meta, META_GRAPH_API_URL: url }), url).toEqual([]);
    }
    expect(problems({ ...meta, META_GRAPH_API_URL: 'http://graph.example.com' })).toEqual([
      expect.stringMatching(/^META_GRAPH_API_URL: must be https:\/\//),
    ]);
    expect(problems({ ...PRODUCTION, ...meta, META_GRAPH_API_URL: 'http://127.0.0.1:4010' })).toEqual([
      expect.stringMatching(/^META_GRAPH_API_URL: must be https:\/\//),
    ]);
    expect(problems({ ...PRODUCTION, ...meta })).toEqual([]);
  });
});
