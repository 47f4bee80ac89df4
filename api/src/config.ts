import { z } from 'zod';
import {
  commonEnv,
  intEnv,
  loadConfigOrExit,
  requireHttpsInProduction,
  requireTwilioSettings,
  smsBudgetEnv,
  twilioEnv,
} from '@guida/shared/config';

export const apiEnvSchema = z
  .object({
    ...commonEnv,
    ...twilioEnv,
    ...smsBudgetEnv,
    PORT: intEnv(3000, 1, 65535),
    /** API processes sharing the port, one per core of the machine (api/src/api-processes.ts). */
    WEB_CONCURRENCY: intEnv(1, 1, 64),
    SESSION_SECRET: z
      .string({ error: 'required: at least 32 random characters (npm start writes one to .env)' })
      .min(32, { error: 'must be at least 32 characters' }),
    /** Lead requests per IP per hour: generous, carriers put many phones behind one address. */
    LEAD_RATE_LIMIT_PER_IP: intEnv(60, 1, 10_000_000),
    /** Lead requests per phone number per hour. */
    LEAD_RATE_LIMIT_PER_PHONE: intEnv(5, 1, 10_000_000),
    /** Admin sessions end after this much inactivity, and in any case after the maximum. */
    ADMIN_SESSION_IDLE_MINUTES: intEnv(30, 1, 24 * 60),
    ADMIN_SESSION_MAX_HOURS: intEnv(12, 1, 24 * 30),
    /** Data-rights requests per IP per hour, and per email address per day. */
    GDPR_RATE_LIMIT_PER_IP: intEnv(10, 1, 10_000_000),
    GDPR_RATE_LIMIT_PER_EMAIL: intEnv(3, 1, 10_000_000),
    /** Analytics requests per IP per minute (a batch counts once). */
    ANALYTICS_RATE_LIMIT_PER_IP: intEnv(600, 1, 10_000_000),
    /** Seconds the live figures are cached in each API process. */
    LIVE_STATS_CACHE_SECONDS: intEnv(5, 0, 300),
    /** express "trust proxy": how many proxies (or which addresses) sit in front of us. */
    TRUST_PROXY: z
      .string()
      .default('loopback')
      .transform((value) => {
        if (value === 'true') return true;
        if (value === 'false') return false;
        return /^\d+$/.test(value) ? Number(value) : value;
      }),
    GUIDES_DIR: z.string().min(1).default('guides/dist'),
    WEB_BUILD_DIR: z.string().min(1).default('web/build/client'),
    GA_MEASUREMENT_ID: z
      .string()
      .regex(/^G-[A-Z0-9]{4,20}$/, { error: 'must look like G-XXXXXXXXXX' })
      .optional(),
    OFFER_ENDS_AT: z.iso
      .datetime({ offset: true, error: 'must be an ISO date-time, e.g. 2026-12-31T23:59:00+01:00' })
      .optional(),
    FREE_PLACES_TOTAL: intEnv(0, 0, 10_000_000),
  })
  .superRefine(requireTwilioSettings)
  .superRefine(requireHttpsInProduction);

export type ApiConfig = z.output<typeof apiEnvSchema>;

export const loadApiConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfigOrExit(apiEnvSchema, env);
