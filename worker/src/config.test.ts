import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@guida/shared/config';
import { workerEnvSchema } from './config';

const crm = { CRM_WEBHOOK_URL: 'https://crm.example/hook' };
/** A Standard Webhooks secret of `bytes` bytes, each `fill`. */
const whsec = (bytes: number, fill = 1) => `whsec_${Buffer.alloc(bytes, fill).toString('base64')}`;

function configError(env: Record<string, string>) {
  try {
    parseEnv(workerEnvSchema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

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
    expect(() => parseEnv(workerEnvSchema, { CRM_WEBHOOK_URL: 'https://crm.example/hook' })).toThrow(
      /CRM_WEBHOOK_SECRET: required when CRM_WEBHOOK_URL is set/,
    );
    expect(() => parseEnv(workerEnvSchema, { ...crm, CRM_WEBHOOK_SECRET: whsec(32) })).not.toThrow();
  });

  it('takes Standard Webhooks secrets of 24 to 64 bytes and says what is wrong with others, never quoting them', () => {
    expect(parseEnv(workerEnvSchema, { ...crm, CRM_WEBHOOK_SECRET: whsec(24) }).CRM_WEBHOOK_SECRET).toBe(whsec(24));
    expect(() => parseEnv(workerEnvSchema, { ...crm, CRM_WEBHOOK_SECRET: whsec(64) })).not.toThrow();
    const refusals: [string, RegExp][] = [
      [whsec(16), /must encode 24 to 64 bytes after "whsec_" \(it encodes 16\)/],
      [whsec(65), /must encode 24 to 64 bytes after "whsec_" \(it encodes 65\)/],
      ['whsec_not-base64_at-all-but-long-enough!', /must be "whsec_" followed by standard base64/],
      [`${whsec(32)}\n`, /must be "whsec_" followed by standard base64/],
      [whsec(32).slice(0, -1), /must be "whsec_" followed by standard base64/],
      [whsec(32).replace('whsec_', 'WHSEC_'), /must start with exactly "whsec_"/],
      ['short-secret', /must be a Standard Webhooks secret, "whsec_" followed by the base64 of 24 to 64 random bytes/],
    ];
    for (const [secret, message] of refusals) {
      for (const variable of ['CRM_WEBHOOK_SECRET', 'CRM_WEBHOOK_SECRET_PREVIOUS']) {
        const env = { ...crm, CRM_WEBHOOK_SECRET: whsec(32, 7), [variable]: secret };
        const error = configError(env);
        expect(error.message).toMatch(new RegExp(`${variable}: ${message.source}`));
        expect(error.message).not.toContain(secret.trim());
      }
    }
    // Every refusal of a malformed whsec_ secret tells how to make a good one.
    expect(configError({ ...crm, CRM_WEBHOOK_SECRET: whsec(16) }).message).toContain(
      `generate one with: node -e "console.log('whsec_' + require('node:crypto').randomBytes(32).toString('base64'))"`,
    );
  });

  it('still takes a secret of the old form (16 characters or more, no whsec_) for one release', () => {
    expect(parseEnv(workerEnvSchema, { ...crm, CRM_WEBHOOK_SECRET: 'x'.repeat(16) }).CRM_WEBHOOK_SECRET).toBe('x'.repeat(16));
  });

  it('takes a previous secret only beside a different current one', () => {
    expect(
      parseEnv(workerEnvSchema, { ...crm, CRM_WEBHOOK_SECRET: whsec(32), CRM_WEBHOOK_SECRET_PREVIOUS: 'an-old-form-secret' }),
    ).toMatchObject({ CRM_WEBHOOK_SECRET: whsec(32), CRM_WEBHOOK_SECRET_PREVIOUS: 'an-old-form-secret' });
    expect(configError({ CRM_WEBHOOK_SECRET_PREVIOUS: whsec(32) }).message).toContain(
      'CRM_WEBHOOK_SECRET_PREVIOUS: set only beside CRM_WEBHOOK_SECRET',
    );
    expect(configError({ ...crm, CRM_WEBHOOK_SECRET: whsec(32), CRM_WEBHOOK_SECRET_PREVIOUS: whsec(32) }).message).toContain(
      'CRM_WEBHOOK_SECRET_PREVIOUS: is the same key as CRM_WEBHOOK_SECRET',
    );
    // The same key written in both forms is the same key.
    const oldForm = 'an-old-form-secret-of-24b';
    const sameKey = `whsec_${Buffer.from(oldForm).toString('base64')}`;
    expect(configError({ ...crm, CRM_WEBHOOK_SECRET: sameKey, CRM_WEBHOOK_SECRET_PREVIOUS: oldForm }).message).toContain(
      'CRM_WEBHOOK_SECRET_PREVIOUS: is the same key as CRM_WEBHOOK_SECRET',
    );
  });

  it('alerts: no channel by default, a list of recipients, a webhook only with a whsec_ secret', () => {
    const defaults = parseEnv(workerEnvSchema, {});
    expect([defaults.ALERT_EMAIL_TO, defaults.ALERT_WEBHOOK_URL]).toEqual([undefined, undefined]);
    expect(defaults).toMatchObject({
      ALERT_SMS_P95_SECONDS: 90,
      ALERT_SMS_FAILURE_PERCENT: 10,
      ALERT_SMS_MIN_COUNT: 10,
      ALERT_CRM_FAILING_MINUTES: 15,
    });
    expect(parseEnv(workerEnvSchema, { ALERT_EMAIL_TO: 'ops@example.it, notte@example.it' }).ALERT_EMAIL_TO).toEqual([
      'ops@example.it',
      'notte@example.it',
    ]);
    expect(configError({ ALERT_EMAIL_TO: 'ops@example.it, nobody' }).message).toContain('ALERT_EMAIL_TO');
    const hook = { ALERT_WEBHOOK_URL: 'https://ops.example/alerts' };
    expect(configError(hook).message).toContain('ALERT_WEBHOOK_SECRET: required when ALERT_WEBHOOK_URL is set');
    const oldForm = 'an-old-style-secret-of-many-characters';
    const refused = configError({ ...hook, ALERT_WEBHOOK_SECRET: oldForm }).message;
    expect(refused).toContain('ALERT_WEBHOOK_SECRET: must be a Standard Webhooks secret');
    expect(refused).not.toContain(oldForm);
    expect(parseEnv(workerEnvSchema, { ...hook, ALERT_WEBHOOK_SECRET: whsec(32) }).ALERT_WEBHOOK_SECRET).toBe(whsec(32));
  });

  it('requires a real link token secret in production only', () => {
    const production = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://guida.example.it', SUPPRESSION_HASH_SECRET: 'k'.repeat(32) };
    expect(() => parseEnv(workerEnvSchema, production)).toThrow(/LINK_TOKEN_SECRET: required in production/);
    expect(() => parseEnv(workerEnvSchema, { ...production, LINK_TOKEN_SECRET: 'short' })).toThrow(/LINK_TOKEN_SECRET/);
    expect(parseEnv(workerEnvSchema, { ...production, LINK_TOKEN_SECRET: 's'.repeat(32) }).LINK_TOKEN_SECRET).toBe('s'.repeat(32));
    expect(() => parseEnv(workerEnvSchema, {})).not.toThrow();
  });

  it('requires a real key of the suppression list in production only (decision 048)', () => {
    const production = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://guida.example.it', LINK_TOKEN_SECRET: 's'.repeat(32) };
    expect(() => parseEnv(workerEnvSchema, production)).toThrow(/SUPPRESSION_HASH_SECRET: required in production/);
    expect(() => parseEnv(workerEnvSchema, { ...production, SUPPRESSION_HASH_SECRET: 'short' })).toThrow(/SUPPRESSION_HASH_SECRET/);
    expect(parseEnv(workerEnvSchema, { ...production, SUPPRESSION_HASH_SECRET: 'k'.repeat(32) }).SUPPRESSION_HASH_SECRET).toBe('k'.repeat(32));
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
