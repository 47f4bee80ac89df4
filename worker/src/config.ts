import { z } from 'zod';
import {
  commonEnv,
  httpUrl,
  intEnv,
  loadConfigOrExit,
  requireHttpsInProduction,
  requireTwilioSettings,
  siteEnv,
  smsBudgetEnv,
  twilioEnv,
} from '@guida/shared/config';
import { requireSuppressionSecretInProduction, suppressionEnv } from '@guida/shared/server/marketing-suppression';
import { webhookSecretProblem, webhookSigningKey } from '@guida/shared/server/webhook-signature';
import { alertChannelEnv, requireAlertWebhookSecret } from '@guida/shared/server/alerts/alert-channels';
import { metaConversionsEnv, requireMetaSettings } from './conversions/meta-settings';

/** What LINK_TOKEN_SECRET is when unset: fine on a laptop, refused in production. */
export const DEVELOPMENT_LINK_TOKEN_SECRET = 'development-only-link-token-secret';

/** Whether a variable is set; its value (a secret of the API's) never reaches the worker's config. */
const isSet = z
  .string()
  .optional()
  .transform((value) => value !== undefined);

const crmWebhookSecret = z.string().superRefine((secret, ctx) => {
  const problem = webhookSecretProblem(secret);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const workerEnvSchema = z
  .object({
    ...commonEnv,
    ...twilioEnv,
    ...smsBudgetEnv,
    /** Seconds an SMS may wait at the provider before it fails instead of arriving late. */
    SMS_VALIDITY_SECONDS: intEnv(300, 60, 14_400),
    CRM_WEBHOOK_URL: httpUrl.optional(),
    /** Standard Webhooks secret (whsec_...) the CRM verifies each request with. */
    CRM_WEBHOOK_SECRET: crmWebhookSecret.optional(),
    /** The secret being replaced: while set, requests carry a signature with each. */
    CRM_WEBHOOK_SECRET_PREVIOUS: crmWebhookSecret.optional(),
    CRM_TIMEOUT_MS: intEnv(10_000, 100, 120_000),
    /** The Meta Conversions API (decision 061): on with META_PIXEL_ID and META_CAPI_ACCESS_TOKEN. */
    ...metaConversionsEnv,
    /**
     * Google Ads' scheduled URL (decision 062) is the API's: the worker reads only whether
     * both credentials are set, to alert when Google stops fetching the file.
     */
    GOOGLE_ADS_EXPORT_USERNAME: isSet,
    GOOGLE_ADS_EXPORT_PASSWORD: isSet,
    /** SMTP_URL, EMAIL_FROM and the alert channels, which the API reads too (decision 058). */
    ...alertChannelEnv,
    RETENTION_MONTHS: siteEnv.RETENTION_MONTHS,
    /** Days before erasure that a lead is told its data will be erased. */
    RETENTION_NOTICE_DAYS: intEnv(30, 0, 365),
    ANALYTICS_RETENTION_MONTHS: siteEnv.ANALYTICS_RETENTION_MONTHS,
    /** How often (ms) the retention job runs. */
    RETENTION_INTERVAL_MS: intEnv(3_600_000, 1000, 86_400_000),
    /** Validity of the link that confirms a data request, and of the link to an export. */
    GDPR_CONFIRM_LINK_TTL_HOURS: intEnv(72, 1, 720),
    GDPR_EXPORT_LINK_TTL_DAYS: intEnv(7, 1, 90),
    /**
     * Keys the tokens of the guide download links (HMAC of the lead id; the database
     * keeps only their hash). Changing it breaks every link already sent.
     */
    LINK_TOKEN_SECRET: z
      .string()
      .min(32, { error: 'must be at least 32 characters' })
      .default(DEVELOPMENT_LINK_TOKEN_SECRET),
    /** Keys the suppression list's hashes: the CRM payload and the exports say who is on it. */
    ...suppressionEnv,
    /**
     * Port of the worker's own HTTP server: GET /health (Redis and PostgreSQL reachable)
     * and GET /metrics (with METRICS_TOKEN). Each worker process on a host needs its own.
     */
    WORKER_METRICS_PORT: intEnv(9464, 1, 65_535),
    /**
     * Address the health and metrics server listens on: this machine only by default (the
     * container's own health check reaches it); 0.0.0.0 (or ::) where a probe or Prometheus
     * comes from another host, e.g. Kubernetes.
     */
    WORKER_METRICS_HOST: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IP address, e.g. 127.0.0.1 or 0.0.0.0' }).default('127.0.0.1'),
    /** Jobs each worker process runs at once, per queue. */
    WORKER_CONCURRENCY: intEnv(50, 1, 1000),
    /** Base delays of the jittered exponential retries, per queue. */
    SMS_RETRY_BASE_MS: intEnv(2000, 1, 3_600_000),
    CRM_RETRY_BASE_MS: intEnv(60_000, 1, 3_600_000),
    EMAIL_RETRY_BASE_MS: intEnv(30_000, 1, 3_600_000),
    GDPR_RETRY_BASE_MS: intEnv(30_000, 1, 3_600_000),
    /** Base delay of the SMS price lookups' retries (decision 060): Twilio fills the price in late. */
    SMS_PRICE_RETRY_BASE_MS: intEnv(60_000, 1, 3_600_000),
    /** How often pending deliveries without a job are looked for, and how old they must be. */
    SWEEP_INTERVAL_MS: intEnv(30_000, 100, 3_600_000),
    SWEEP_GRACE_MS: intEnv(10_000, 0, 3_600_000),
    /** SMS p95 (lead to provider, last 10 minutes) above which an alert opens. */
    ALERT_SMS_P95_SECONDS: intEnv(90, 1, 3600),
    /** Share of SMS not delivered (last 10 minutes) above which an alert opens. */
    ALERT_SMS_FAILURE_PERCENT: intEnv(10, 1, 100),
    /** SMS the last 10 minutes must hold before the p95 and the failure rate can alert. */
    ALERT_SMS_MIN_COUNT: intEnv(10, 1, 100_000),
    /** Minutes the CRM must fail every delivery before an alert opens. */
    ALERT_CRM_FAILING_MINUTES: intEnv(15, 1, 1440),
  })
  .superRefine(requireTwilioSettings)
  .superRefine(requireHttpsInProduction)
  .superRefine(requireSuppressionSecretInProduction)
  .superRefine(requireAlertWebhookSecret)
  .superRefine(requireMetaSettings)
  .superRefine((value, ctx) => {
    if (value.NODE_ENV === 'production' && value.LINK_TOKEN_SECRET === DEVELOPMENT_LINK_TOKEN_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['LINK_TOKEN_SECRET'],
        message: 'required in production (at least 32 random characters)',
      });
    }
  })
  .superRefine((value, ctx) => {
    if (value.CRM_WEBHOOK_URL && !value.CRM_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['CRM_WEBHOOK_SECRET'],
        message: 'required when CRM_WEBHOOK_URL is set (the CRM checks the signature with it)',
      });
    }
    const { CRM_WEBHOOK_SECRET: current, CRM_WEBHOOK_SECRET_PREVIOUS: previous } = value;
    if (previous && !current) {
      ctx.addIssue({
        code: 'custom',
        path: ['CRM_WEBHOOK_SECRET_PREVIOUS'],
        message: 'set only beside CRM_WEBHOOK_SECRET, which holds the new secret',
      });
    } else if (previous && current && webhookSigningKey(previous).equals(webhookSigningKey(current))) {
      ctx.addIssue({
        code: 'custom',
        path: ['CRM_WEBHOOK_SECRET_PREVIOUS'],
        message: 'is the same key as CRM_WEBHOOK_SECRET; unset it when no change of secret is under way',
      });
    }
  });

export type WorkerConfig = z.output<typeof workerEnvSchema>;

export const loadWorkerConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfigOrExit(workerEnvSchema, env);
