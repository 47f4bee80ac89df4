/**
 * Environment schema pieces shared by api and worker. Each process composes the pieces
 * it uses and parses `process.env` once, synchronously, at start-up; `.env.example`
 * documents every variable.
 */
import { z } from 'zod';

export const intEnv = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number between ${min} and ${max}` })
    .int({ error: `must be a whole number between ${min} and ${max}` })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })
    .default(fallback);

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));

const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' });
const redisUrl = z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' });

export const commonEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  PUBLIC_BASE_URL: httpUrl.default('http://localhost:3000'),
  DATABASE_URL: postgresUrl.default('postgres://postgres@127.0.0.1:5432/guida'),
  /**
   * A connection that is a real session, for migrations (no statement timeout, DDL) when
   * DATABASE_URL goes through a pooler in transaction mode. Unset: DATABASE_URL.
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /**
   * `transaction` when DATABASE_URL is a pooler that lends a server connection per
   * transaction (PgBouncer's transaction mode, Supabase's port 6543, RDS Proxy): no named
   * prepared statements then, since the next statement may run on another server connection.
   */
  DATABASE_POOL_MODE: z.enum(['session', 'transaction']).default('session'),
  /** Connections each process keeps at most (each API process, each worker process). */
  DATABASE_POOL_MAX: intEnv(10, 1, 500),
  /** Path of a PEM file with the CA of the server's certificate: TLS, verified (docs/ops/postgres.md). */
  DATABASE_SSL_CA: z.string().min(1).optional(),
  REDIS_URL: redisUrl.default('redis://127.0.0.1:6379'),
  /**
   * Sentinels (`host:port,host:port,…`) that name the Redis master: the processes connect to
   * whichever server they name and follow a failover. REDIS_URL then gives only the
   * password, the user, the database number and TLS (`rediss://`). Unset: REDIS_URL's server.
   */
  REDIS_SENTINELS: z
    .string()
    .regex(/^\s*[^\s,]+:\d{1,5}\s*(,\s*[^\s,]+:\d{1,5}\s*)*$/, { error: 'must be host:port,host:port,…' })
    .transform((value) =>
      value.split(',').map((address) => {
        const at = address.trim().lastIndexOf(':');
        return { host: address.trim().slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(address.trim().slice(at + 1)) };
      }),
    )
    .optional(),
  /** The master's name in the sentinels' configuration (`sentinel monitor <name> …`). */
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
  /** The sentinels' own password (`requirepass` of the sentinels), when they have one. */
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
  /** Path of the PEM file of the CA that signed Redis's certificate (TLS, verified; rediss://). */
  REDIS_TLS_CA: z.string().min(1).optional(),
  /** Prefix of every Redis key (queues, rate limits); lets deployments or test runs share a Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/i, { error: 'letters, digits, - and _ only' })
    .default('guida'),
  GUIDE_LINK_TTL_DAYS: intEnv(30, 1, 365),
  /** Minutes an SMS held by a budget waits before its link goes by email too (the visitor was promised 2). */
  SMS_HELD_EMAIL_AFTER_MINUTES: intEnv(10, 1, 24 * 60),
  /**
   * On SIGTERM: milliseconds the API's open requests and the worker's running jobs get to
   * finish (then jobs are handed back). Under the 30 s platforms usually wait before SIGKILL.
   */
  SHUTDOWN_GRACE_MS: intEnv(25_000, 1000, 300_000),
  /**
   * Bearer token Prometheus sends to read GET /metrics (API and worker). Unset: no
   * metrics endpoint at all (404).
   */
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /**
   * An OTLP/HTTP receiver (a collector, Jaeger, Tempo…) the traces go to, as JSON to
   * `<endpoint>/v1/traces` (docs/ops/tracing.md). Unset: no tracing code is even loaded.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  /** The `service.name` of the traces; unset: guida-api or guida-worker. */
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[\w.-]{1,60}$/, { error: 'letters, digits, ., - and _ only' })
    .optional(),
  /** Where errors are reported (Sentry or a compatible tracker), scrubbed of personal data. Unset: nowhere. */
  SENTRY_DSN: z
    .string()
    .regex(/^https?:\/\/\w+(?::\w*)?@[\w.-]+(?::\d+)?\/.+$/, { error: 'must be a DSN: https://<public key>@<host>/<project id>' })
    .optional(),
};

/**
 * Who provides the service: named in every page's footer (d.lgs. 70/2003 art. 7) and, as
 * the data controller, in the privacy notice. REA number and share capital are shown when
 * set (companies registered in Italy).
 */
export const providerEnv = {
  PRIVACY_CONTROLLER_NAME: z.string().min(2).optional(),
  PRIVACY_CONTROLLER_ADDRESS: z.string().min(5).optional(),
  PRIVACY_CONTROLLER_VAT: z.string().min(5).optional(),
  PRIVACY_CONTROLLER_REA: z.string().min(3).optional(),
  PRIVACY_CONTROLLER_SHARE_CAPITAL: z.string().min(2).optional(),
};

/** The provider's values a deployment may not leave empty. */
const REQUIRED_PROVIDER = ['PRIVACY_CONTROLLER_NAME', 'PRIVACY_CONTROLLER_ADDRESS', 'PRIVACY_CONTROLLER_VAT'] as const;
type ProviderValues = Partial<Record<keyof typeof providerEnv, string | undefined>>;

/** A production process (NODE_ENV=production) names the provider on its pages: every required value is set. */
export function requireProviderInProduction(value: ProviderValues & { NODE_ENV: string }, ctx: z.RefinementCtx) {
  if (value.NODE_ENV !== 'production') return;
  for (const key of REQUIRED_PROVIDER) {
    if (!value[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required in production (the provider named on every page)' });
  }
}

/**
 * What the public site's build needs: the address pages are canonical at, the provider and
 * the data controller's contact named on the pages and in the privacy notice.
 */
export const siteEnv = {
  PUBLIC_BASE_URL: commonEnv.PUBLIC_BASE_URL,
  ...providerEnv,
  PRIVACY_CONTACT_EMAIL: z.email({ error: 'must be an email address' }).optional(),
  RETENTION_MONTHS: intEnv(24, 1, 120),
  ANALYTICS_RETENTION_MONTHS: intEnv(13, 1, 120),
};

/**
 * A site served over https is a real deployment: its pages must name the provider and its
 * privacy notice the controller's contact. (Build tools force NODE_ENV=production, so the
 * public URL is the signal.)
 */
export function requireControllerWhenPublic(
  value: ProviderValues & { PUBLIC_BASE_URL: string; PRIVACY_CONTACT_EMAIL?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (!value.PUBLIC_BASE_URL.startsWith('https://')) return;
  for (const key of [...REQUIRED_PROVIDER, 'PRIVACY_CONTACT_EMAIL'] as const) {
    if (!value[key]) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'required when PUBLIC_BASE_URL is https (footer and privacy notice)' });
    }
  }
}

export const twilioEnv = {
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-f]{32}$/i, { error: 'must look like AC followed by 32 hex digits' })
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, { error: 'looks too short' }).optional(),
  /** A number in E.164 or an alphanumeric sender of at most 11 characters. */
  TWILIO_FROM: z
    .string()
    .regex(/^(\+[1-9]\d{6,14}|(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11})$/, {
      error: 'must be an E.164 number or an alphanumeric sender of at most 11 characters',
    })
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-f]{32}$/i, { error: 'must look like MG followed by 32 hex digits' })
    .optional(),
  TWILIO_API_BASE_URL: httpUrl.default('https://api.twilio.com'),
  /** SMS handed to the provider per second, across every worker process. */
  SMS_RATE_PER_SECOND: intEnv(10, 1, 10_000),
};

/**
 * SMS budgets (decision 025): SMS handed to the provider per rolling hour and day, in
 * total, per country of the number and per number block (the first 6 digits of the E.164
 * number). Beyond a budget the SMS is held, not sent, until the window allows it again or
 * an admin releases it. Sized for a busy campaign (a few thousand leads a day, a peak hour
 * of about a sixth of the day) with room to spare, while a pumping run, which
 * concentrates on a few premium ranges, meets its block budget within minutes.
 */
export const smsBudgetEnv = {
  SMS_BUDGET_GLOBAL_PER_HOUR: intEnv(1500, 1, 10_000_000),
  SMS_BUDGET_GLOBAL_PER_DAY: intEnv(10_000, 1, 10_000_000),
  SMS_BUDGET_IT_PER_HOUR: intEnv(1200, 1, 10_000_000),
  SMS_BUDGET_IT_PER_DAY: intEnv(8000, 1, 10_000_000),
  SMS_BUDGET_CH_PER_HOUR: intEnv(500, 1, 10_000_000),
  SMS_BUDGET_CH_PER_DAY: intEnv(3000, 1, 10_000_000),
  SMS_BUDGET_BLOCK_PER_HOUR: intEnv(60, 1, 10_000_000),
  SMS_BUDGET_BLOCK_PER_DAY: intEnv(300, 1, 10_000_000),
  /**
   * Per client network (an IPv4 /24, an IPv6 /48, as the lead stores it) and per client
   * address (an IPv4 address, an IPv6 /64), whatever the numbers (decision 052): a
   * distributed attack gets at most these times its networks and addresses.
   */
  SMS_BUDGET_NETWORK_PER_HOUR: intEnv(20, 1, 10_000_000),
  SMS_BUDGET_NETWORK_PER_DAY: intEnv(100, 1, 10_000_000),
  SMS_BUDGET_ADDRESS_PER_HOUR: intEnv(5, 1, 10_000_000),
  SMS_BUDGET_ADDRESS_PER_DAY: intEnv(20, 1, 10_000_000),
  /**
   * Percent of the global, country and block budgets kept for trusted leads (a visit seen
   * before the form, decision 052): the others may use only the rest.
   */
  SMS_BUDGET_TRUSTED_SHARE_PERCENT: intEnv(50, 0, 100),
};

type TwilioSettings = {
  SMS_PROVIDER: 'outbox' | 'twilio';
  TWILIO_ACCOUNT_SID?: string | undefined;
  TWILIO_AUTH_TOKEN?: string | undefined;
  TWILIO_FROM?: string | undefined;
  TWILIO_MESSAGING_SERVICE_SID?: string | undefined;
};

/**
 * The SMS facts the public pages tell visitors, from the settings the worker sends with:
 * read by the web build (prerendered copy) and by the API (/api/site-settings, the copy
 * after hydration), so a changed setting shows without a rebuild.
 */
export const smsCopyEnv = {
  GUIDE_LINK_TTL_DAYS: commonEnv.GUIDE_LINK_TTL_DAYS,
  SMS_HELD_EMAIL_AFTER_MINUTES: commonEnv.SMS_HELD_EMAIL_AFTER_MINUTES,
  TWILIO_FROM: twilioEnv.TWILIO_FROM,
  TWILIO_MESSAGING_SERVICE_SID: twilioEnv.TWILIO_MESSAGING_SERVICE_SID,
};

/**
 * The sender a visitor's phone shows: TWILIO_FROM, unless a Messaging Service (which takes
 * precedence and picks the sender itself) is set; null when not known in advance.
 */
export function smsSenderShown(value: { TWILIO_FROM?: string | undefined; TWILIO_MESSAGING_SERVICE_SID?: string | undefined }) {
  return value.TWILIO_MESSAGING_SERVICE_SID ? null : (value.TWILIO_FROM ?? null);
}

/** With the twilio provider, credentials and a sender are required. */
export function requireTwilioSettings(value: TwilioSettings, ctx: z.RefinementCtx) {
  if (value.SMS_PROVIDER !== 'twilio') return;
  for (const key of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const) {
    if (!value[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when SMS_PROVIDER=twilio' });
  }
  if (!value.TWILIO_FROM && !value.TWILIO_MESSAGING_SERVICE_SID) {
    ctx.addIssue({
      code: 'custom',
      path: ['TWILIO_FROM'],
      message: 'set TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID when SMS_PROVIDER=twilio',
    });
  }
}

/** In production the public URL must be https (Secure cookies, HSTS, Twilio callbacks). */
export function requireHttpsInProduction(
  value: { NODE_ENV: string; PUBLIC_BASE_URL: string },
  ctx: z.RefinementCtx,
) {
  if (value.NODE_ENV === 'production' && !value.PUBLIC_BASE_URL.startsWith('https://')) {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'must be https:// in production' });
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with `schema`. Empty strings count as unset, so a blank line
 * in `.env` falls back to the default. Throws a ConfigError naming every bad variable
 * (never its value: it may be a secret).
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
  );
}

/** Parses once and stops the process with a readable message when the config is wrong. */
export function loadConfigOrExit<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  try {
    return parseEnv(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\nSee .env.example for every variable and its meaning.\n`);
    process.exit(1);
  }
}
