import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@guida/shared/config';
import { workerEnvSchema } from './config';

describe('worker configuration', () => {
  it('defaults to the outbox provider, no CRM and a 24-month retention', () => {
    expect(parseEnv(workerEnvSchema, {})).toMatchObject({
      SMS_PROVIDER: 'outbox',
      SMS_RATE_PER_SECOND: 10,
      SMS_VALIDITY_SECONDS: 300,
      RETENTION_MONTHS: 24,
    });
  });

  it('requires the signing secret with a CRM webhook', () => {
    expect(() => parseEnv(workerEnvSchema, { CRM_WEBHOOK_URL: 'https://crm.example/hook' })).toThrow(ConfigError);
    expect(() =>
      parseEnv(workerEnvSchema, { CRM_WEBHOOK_URL: 'https://crm.example/hook', CRM_WEBHOOK_SECRET: 'x'.repeat(16) }),
    ).not.toThrow();
  });

  it('requires a real link token secret in production only', () => {
    const production = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://guida.example.it' };
    expect(() => parseEnv(workerEnvSchema, production)).toThrow(/LINK_TOKEN_SECRET: required in production/);
    expect(() => parseEnv(workerEnvSchema, { ...production, LINK_TOKEN_SECRET: 'short' })).toThrow(/LINK_TOKEN_SECRET/);
    expect(parseEnv(workerEnvSchema, { ...production, LINK_TOKEN_SECRET: 's'.repeat(32) }).LINK_TOKEN_SECRET).toBe('s'.repeat(32));
    expect(() => parseEnv(workerEnvSchema, {})).not.toThrow();
  });

  it('accepts a number or a short alphanumeric sender', () => {
    const twilio = {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'f'.repeat(32),
    };
    expect(parseEnv(workerEnvSchema, { ...twilio, TWILIO_FROM: '+393401234567' }).TWILIO_FROM).toBe('+393401234567');
    expect(parseEnv(workerEnvSchema, { ...twilio, TWILIO_FROM: 'Guida Fin' }).TWILIO_FROM).toBe('Guida Fin');
    expect(() => parseEnv(workerEnvSchema, { ...twilio, TWILIO_FROM: '12345' })).toThrow(/TWILIO_FROM/);
  });
});
