import { describe, expect, it } from 'vitest';
import { parseEnv } from '@guida/shared/config';
import { apiEnvSchema } from './config';
import { apiConfigProblems as problems } from './testing/api-config';

/** The provider every page names, required in production (d.lgs. 70/2003 art. 7). */
const provider = {
  PRIVACY_CONTROLLER_NAME: 'Esempio S.r.l.',
  PRIVACY_CONTROLLER_ADDRESS: 'Via Roma 1, 20100 Milano',
  PRIVACY_CONTROLLER_VAT: 'IT01234567890',
};
const base = {
  SESSION_SECRET: 'a'.repeat(32),
  SUPPRESSION_HASH_SECRET: 's'.repeat(32),
  ADMIN_SECOND_FACTOR_KEY: 't'.repeat(32),
  ...provider,
};
describe('API configuration', () => {
  it('has working defaults, and empty values count as unset', () => {
    const config = parseEnv(apiEnvSchema, { ...base, PORT: '', SMS_PROVIDER: '' });
    expect(config).toMatchObject({
      PORT: 3000,
      SMS_PROVIDER: 'outbox',
      PUBLIC_BASE_URL: 'http://localhost:3000',
      LEAD_RATE_LIMIT_PER_IP: 60,
      TRUST_PROXY: 'loopback',
    });
  });

  it('names each wrong variable, never its value', () => {
    const found = problems({ SESSION_SECRET: 'short-secret', PORT: 'eighty', PUBLIC_BASE_URL: 'ftp://x' });
    expect(found.join('\n')).toMatch(/SESSION_SECRET: must be at least 32 characters/);
    expect(found.join('\n')).toMatch(/PORT: must be a whole number/);
    expect(found.join('\n')).toMatch(/PUBLIC_BASE_URL: must be an http\(s\) URL/);
    expect(found.join('\n')).not.toContain('short-secret');
  });

  it('requires a secret, Twilio credentials with the twilio provider, and https in production', () => {
    expect(problems({})).toEqual([expect.stringMatching(/^SESSION_SECRET: required/)]);
    expect(problems({ ...base, SMS_PROVIDER: 'twilio' })).toEqual([
      'TWILIO_ACCOUNT_SID: required when SMS_PROVIDER=twilio',
      'TWILIO_AUTH_TOKEN: required when SMS_PROVIDER=twilio',
      'TWILIO_FROM: set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID when SMS_PROVIDER=twilio',
    ]);
    expect(problems({ ...base, NODE_ENV: 'production', TRUST_PROXY: '1' })).toEqual([
      'PUBLIC_BASE_URL: must be https:// in production',
    ]);
    expect(problems({ ...base, TWILIO_FROM: 'GuidaFinanzaGratis' })[0]).toMatch(/^TWILIO_FROM:/);
    expect(problems({ ...base, GA_MEASUREMENT_ID: 'UA-1234' })[0]).toMatch(/^GA_MEASUREMENT_ID:/);
    expect(problems({ ...base, OFFER_ENDS_AT: 'domani' })[0]).toMatch(/^OFFER_ENDS_AT:/);
    expect(problems({ ...base, OFFER_STARTS_AT: '2026-12-01' })[0]).toMatch(/^OFFER_STARTS_AT:/);
    expect(problems({ ...base, OFFER_STARTS_AT: '2026-12-31T00:00:00+01:00', OFFER_ENDS_AT: '2026-12-01T00:00:00+01:00' })).toEqual([
      'OFFER_ENDS_AT: must be later than OFFER_STARTS_AT',
    ]);
  });

  it('refuses to start in production without the provider named on the pages', () => {
    const production = {
      SESSION_SECRET: 'a'.repeat(32),
      SUPPRESSION_HASH_SECRET: 's'.repeat(32),
      ADMIN_SECOND_FACTOR_KEY: 't'.repeat(32),
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://guida.example',
      TRUST_PROXY: '1',
    };
    expect(problems(production)).toEqual([
      'PRIVACY_CONTROLLER_NAME: required in production (the provider named on every page)',
      'PRIVACY_CONTROLLER_ADDRESS: required in production (the provider named on every page)',
      'PRIVACY_CONTROLLER_VAT: required in production (the provider named on every page)',
    ]);
    expect(problems({ ...production, ...provider, PRIVACY_CONTROLLER_VAT: '' })).toEqual([
      'PRIVACY_CONTROLLER_VAT: required in production (the provider named on every page)',
    ]);
    expect(problems({ ...production, ...provider })).toEqual([]);
    // Outside production, local runs show placeholders.
    expect(problems({ SESSION_SECRET: 'a'.repeat(32) })).toEqual([]);
  });

  it('requires a real key of the suppression list in production only (decision 048)', () => {
    const production = { ...base, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://guida.example', TRUST_PROXY: '1' };
    expect(problems({ ...production, SUPPRESSION_HASH_SECRET: '' })).toEqual([
      'SUPPRESSION_HASH_SECRET: required in production (at least 32 random characters, never changed afterwards)',
    ]);
    expect(problems({ ...production, SUPPRESSION_HASH_SECRET: 'short' })[0]).toMatch(/^SUPPRESSION_HASH_SECRET: must be at least 32/);
    expect(problems(production)).toEqual([]);
    expect(problems({ ...base, SUPPRESSION_HASH_SECRET: '' })).toEqual([]);
  });

  it('requires the second factor in production (off refused) with a key of its own; off is allowed elsewhere', () => {
    const production = { ...base, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://guida.example', TRUST_PROXY: '1' };
    expect(parseEnv(apiEnvSchema, production)).toMatchObject({ ADMIN_SECOND_FACTOR: 'required', ADMIN_IDLE_MINUTES: 30 });
    expect(problems({ ...production, ADMIN_SECOND_FACTOR: 'off' })).toEqual([
      'ADMIN_SECOND_FACTOR: off is refused in production: every admin signs in with a second factor',
    ]);
    expect(problems({ ...production, ADMIN_SECOND_FACTOR_KEY: '' })).toEqual([
      expect.stringMatching(/^ADMIN_SECOND_FACTOR_KEY: required in production/),
    ]);
    expect(problems({ ...production, ADMIN_SECOND_FACTOR_KEY: 'short' })[0]).toMatch(/^ADMIN_SECOND_FACTOR_KEY: must be at least 32/);
    expect(problems({ ...base, ADMIN_SECOND_FACTOR: 'maybe' })[0]).toMatch(/^ADMIN_SECOND_FACTOR: must be required or off/);
    expect(parseEnv(apiEnvSchema, { ...base, ADMIN_SECOND_FACTOR: 'off', ADMIN_SECOND_FACTOR_KEY: '' }).ADMIN_SECOND_FACTOR).toBe('off');
    expect(parseEnv(apiEnvSchema, { ...base, ADMIN_IDLE_MINUTES: '5' }).ADMIN_IDLE_MINUTES).toBe(5);
  });

  describe('TRUST_PROXY', () => {
    const production = { ...base, NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://guida.example' };

    it('is required in production, and loopback by default elsewhere', () => {
      expect(problems(production)).toEqual([expect.stringMatching(/^TRUST_PROXY: required in production/)]);
      expect(parseEnv(apiEnvSchema, { ...base, NODE_ENV: 'development' }).TRUST_PROXY).toBe('loopback');
      expect(parseEnv(apiEnvSchema, { ...base, NODE_ENV: 'test' }).TRUST_PROXY).toBe('loopback');
    });

    it('takes a hop count, or addresses, CIDR ranges and named ranges', () => {
      const trusted = (value: string) => parseEnv(apiEnvSchema, { ...production, TRUST_PROXY: value, BEHIND_LOCAL_PROXY: 'true' }).TRUST_PROXY;
      expect(trusted('1')).toBe(1);
      expect(trusted('0')).toBe(0);
      expect(trusted('loopback')).toBe('loopback');
      expect(trusted('10.0.0.0/8, 173.245.48.0/20,2400:cb00::/32')).toBe('10.0.0.0/8, 173.245.48.0/20,2400:cb00::/32');
      expect(trusted('loopback,203.0.113.7')).toBe('loopback,203.0.113.7');
    });

    it('refuses loopback in production unless a proxy on this machine is declared (BEHIND_LOCAL_PROXY)', () => {
      expect(problems({ ...production, TRUST_PROXY: 'loopback' })).toEqual([
        expect.stringMatching(/^TRUST_PROXY: loopback trusts only a proxy on this machine/),
      ]);
      expect(problems({ ...production, TRUST_PROXY: '127.0.0.1,10.0.0.0/8' })).toHaveLength(1);
      expect(problems({ ...production, TRUST_PROXY: 'loopback', BEHIND_LOCAL_PROXY: 'true' })).toEqual([]);
      expect(problems({ ...production, TRUST_PROXY: '1' })).toEqual([]);
      expect(problems({ ...base, TRUST_PROXY: 'loopback' })).toEqual([]);
      expect(problems({ ...production, TRUST_PROXY: '1', BEHIND_LOCAL_PROXY: 'forse' })).toEqual([
        expect.stringMatching(/^BEHIND_LOCAL_PROXY: must be true or false/),
      ]);
    });

    it('refuses ranges that trust (nearly) every address, as true does', () => {
      for (const wide of ['0.0.0.0/0', '::/0', '10.0.0.0/8,0.0.0.0/1', '2000::/3']) {
        expect(problems({ ...production, TRUST_PROXY: wide }), wide).toEqual([expect.stringMatching(/^TRUST_PROXY: .* trusts \(nearly\) every address/)]);
      }
      expect(problems({ ...production, TRUST_PROXY: '10.0.0.0/8,2400:cb00::/32' })).toEqual([]);
    });

    it('refuses true (every client could pick its own address) and anything unreadable', () => {
      expect(problems({ ...production, TRUST_PROXY: 'true' })).toEqual([
        expect.stringMatching(/^TRUST_PROXY: true lets any client choose its own address/),
      ]);
      expect(problems({ ...base, TRUST_PROXY: 'true' })).toHaveLength(1);
      for (const wrong of ['yes', '10.0.0.0/33', '999.1.1.1', 'loopback;1', '-1', '1.5']) {
        expect(problems({ ...production, TRUST_PROXY: wrong }), wrong).toEqual([expect.stringMatching(/^TRUST_PROXY: must be/)]);
      }
    });
  });

  it('reads the alert channels and the no-worker threshold, which it sends itself (decision 058)', () => {
    const defaults = parseEnv(apiEnvSchema, base);
    expect(defaults.WORKER_HEARTBEAT_ALERT_MINUTES).toBe(3);
    expect(defaults.ALERT_EMAIL_TO).toBeUndefined();
    expect(parseEnv(apiEnvSchema, { ...base, ALERT_EMAIL_TO: 'ops@example.it, io@example.it' }).ALERT_EMAIL_TO).toEqual([
      'ops@example.it',
      'io@example.it',
    ]);
    expect(problems({ ...base, ALERT_WEBHOOK_URL: 'https://hooks.example.it/a', WORKER_HEARTBEAT_ALERT_MINUTES: '0' })).toEqual([
      expect.stringContaining('WORKER_HEARTBEAT_ALERT_MINUTES'),
      expect.stringContaining('ALERT_WEBHOOK_SECRET'),
    ]);
  });

  it('asks for the challenge only when traffic looks wrong, by default', () => {
    expect(parseEnv(apiEnvSchema, base)).toMatchObject({
      CHALLENGE_MODE: 'auto',
      CHALLENGE_WINDOW_SECONDS: 600,
      CHALLENGE_CLIENT_THRESHOLD: 5,
      CHALLENGE_GLOBAL_THRESHOLD: 300,
      CHALLENGE_COST: 5000,
    });
    expect(problems({ ...base, CHALLENGE_MODE: 'sometimes' })).toEqual(['CHALLENGE_MODE: must be auto, always or off']);
    expect(problems({ ...base, CHALLENGE_CLIENT_THRESHOLD: '0' })[0]).toMatch(/^CHALLENGE_CLIENT_THRESHOLD: must be at least 1/);
  });

  it('gives an IPv6 /48 16 and an IPv4 /24 32 times a client\'s allowance, within their sizes (decision 053)', () => {
    expect(parseEnv(apiEnvSchema, base)).toMatchObject({ RATE_LIMIT_IPV6_48_FACTOR: 16, RATE_LIMIT_IPV4_24_FACTOR: 32 });
    expect(parseEnv(apiEnvSchema, { ...base, RATE_LIMIT_IPV6_48_FACTOR: '65536', RATE_LIMIT_IPV4_24_FACTOR: '1' })).toMatchObject({
      RATE_LIMIT_IPV6_48_FACTOR: 65_536,
      RATE_LIMIT_IPV4_24_FACTOR: 1,
    });
    expect(problems({ ...base, RATE_LIMIT_IPV6_48_FACTOR: '0' })[0]).toMatch(/^RATE_LIMIT_IPV6_48_FACTOR: must be at least 1/);
    expect(problems({ ...base, RATE_LIMIT_IPV4_24_FACTOR: '257' })[0]).toMatch(/^RATE_LIMIT_IPV4_24_FACTOR: /);
  });
});
