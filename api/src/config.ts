import { isIP } from 'node:net';
import { z } from 'zod';
import {
  commonEnv,
  httpUrl,
  intEnv,
  loadConfigOrExit,
  providerEnv,
  requireHttpsInProduction,
  requireProviderInProduction,
  requireTwilioSettings,
  smsBudgetEnv,
  twilioEnv,
} from '@guida/shared/config';
import { alertChannelEnv, requireAlertWebhookSecret } from '@guida/shared/server/alerts/alert-channels';
import { requireSuppressionSecretInProduction, suppressionEnv } from '@guida/shared/server/marketing-suppression';
import { googleAdsEnv, requireGoogleAdsExportCredentials } from './google-ads-conversions';

/** Express's names for address ranges, usable in TRUST_PROXY's list. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const DEVELOPMENT_TRUST_PROXY = 'loopback';

function isAddressOrCidr(item: string): boolean {
  const [address = '', prefix, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * The narrowest a trusted range may be: a wider one (0.0.0.0/0, ::/0, half the internet)
 * trusts clients themselves, as `true` does. A provider's ranges (Cloudflare's are /12 to
 * /22 and /29 to /32) are far narrower.
 */
const WIDEST_TRUSTED_PREFIX = { 4: 8, 6: 16 } as const;
const isTooWide = (item: string) => {
  const [address = '', prefix] = item.split('/');
  const version = isIP(address) as 0 | 4 | 6;
  return version !== 0 && prefix !== undefined && Number(prefix) < WIDEST_TRUSTED_PREFIX[version];
};

/** Whether the value trusts a proxy on this machine only by naming loopback (the .env.example value). */
const trustsLoopback = (value: unknown) =>
  typeof value === 'string' && value.split(',').some((item) => ['loopback', '127.0.0.1', '::1'].includes(item.trim()) || item.trim().startsWith('127.'));

/**
 * A hop count (the number of proxies in front of the API), or a comma-separated list of
 * proxy addresses, CIDR ranges and express's named ranges. Never `true`: it trusts any
 * X-Forwarded-For, so every client could name its own address and escape every limit.
 */
const trustProxyEnv = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (/^\d{1,2}$/.test(value)) return;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message: 'true lets any client choose its own address and escape every rate limit: give a hop count or the proxies\' addresses',
      });
      return;
    }
    const items = value.split(',').map((item) => item.trim());
    if (!items.every((item) => NAMED_RANGES.has(item) || isAddressOrCidr(item))) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a hop count (e.g. 1) or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal',
      });
      return;
    }
    const tooWide = items.filter(isTooWide);
    if (tooWide.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${tooWide.join(', ')} trusts (nearly) every address, as true does: name the proxies' own, narrower ranges`,
      });
    }
  })
  .transform((value): number | string => (/^\d+$/.test(value) ? Number(value) : value));

/**
 * Behind a platform's router every visitor would share the router's address (one rate-limit
 * bucket for everybody) unless the proxy in front is named; a production deployment must
 * say which one it has (docs/ops/proxy.md).
 */
function requireTrustProxyInProduction(
  value: { NODE_ENV: string; TRUST_PROXY?: unknown; BEHIND_LOCAL_PROXY: boolean },
  ctx: z.RefinementCtx,
) {
  if (value.NODE_ENV !== 'production') return;
  if (value.TRUST_PROXY === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['TRUST_PROXY'],
      message: 'required in production: the number of proxies in front of the API (e.g. 1) or their addresses/CIDR ranges',
    });
  } else if (trustsLoopback(value.TRUST_PROXY) && !value.BEHIND_LOCAL_PROXY) {
    // `loopback` is .env.example's value, right for npm start and nginx on the same host,
    // wrong behind a platform's router: every visitor would then share one rate-limit bucket.
    ctx.addIssue({
      code: 'custom',
      path: ['TRUST_PROXY'],
      message:
        'loopback trusts only a proxy on this machine: name the proxy in front (e.g. 1 behind Render or Heroku), or set BEHIND_LOCAL_PROXY=true when nginx or Caddy on this host forwards to the API',
    });
  }
}

const isoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO date-time, e.g. 2026-12-31T23:59:00+01:00' });

/** Production admins always sign in with a second factor, whose secrets need a key of their own. */
function requireSecondFactorInProduction(
  value: { NODE_ENV: string; ADMIN_SECOND_FACTOR: string; ADMIN_SECOND_FACTOR_KEY?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.NODE_ENV !== 'production') return;
  if (value.ADMIN_SECOND_FACTOR === 'off') {
    ctx.addIssue({ code: 'custom', path: ['ADMIN_SECOND_FACTOR'], message: 'off is refused in production: every admin signs in with a second factor' });
  }
  if (!value.ADMIN_SECOND_FACTOR_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['ADMIN_SECOND_FACTOR_KEY'],
      message: 'required in production: at least 32 random characters (encrypts the admins\' TOTP secrets)',
    });
  }
}

/** An offer that ends before it starts could never take a lead: a typo, refused at start. */
function requireOfferEndAfterStart(value: { OFFER_STARTS_AT?: string | undefined; OFFER_ENDS_AT?: string | undefined }, ctx: z.RefinementCtx) {
  if (value.OFFER_STARTS_AT && value.OFFER_ENDS_AT && Date.parse(value.OFFER_ENDS_AT) <= Date.parse(value.OFFER_STARTS_AT)) {
    ctx.addIssue({ code: 'custom', path: ['OFFER_ENDS_AT'], message: 'must be later than OFFER_STARTS_AT' });
  }
}

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
    /**
     * Admin sessions end after this many minutes without anything the admin did (the
     * dashboard's polls do not count), and in any case after the maximum (decision 054).
     */
    ADMIN_IDLE_MINUTES: intEnv(30, 1, 24 * 60),
    ADMIN_SESSION_MAX_HOURS: intEnv(12, 1, 24 * 30),
    /** TOTP after the password for every admin (decision 054); `off` only outside production. */
    ADMIN_SECOND_FACTOR: z.enum(['required', 'off'], { error: 'must be required or off' }).default('required'),
    /** Encrypts the admins' TOTP secrets at rest; required in production, else derived from SESSION_SECRET. */
    ADMIN_SECOND_FACTOR_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** Data-rights requests per IP per hour, and per email address per day. */
    GDPR_RATE_LIMIT_PER_IP: intEnv(10, 1, 10_000_000),
    GDPR_RATE_LIMIT_PER_EMAIL: intEnv(3, 1, 10_000_000),
    /** Analytics requests per IP per minute (a batch counts once). */
    ANALYTICS_RATE_LIMIT_PER_IP: intEnv(600, 1, 10_000_000),
    /**
     * Visit sessions (GET /api/analytics/session, decision 051) per IP per hour: a tab asks
     * once. Beyond it a visit is still recorded, only outside the experiments' counts.
     */
    ANALYTICS_SESSIONS_PER_IP_PER_HOUR: intEnv(300, 1, 10_000_000),
    /** Seconds the live figures are cached in each API process. */
    LIVE_STATS_CACHE_SECONDS: intEnv(5, 0, 300),
    /** Analytics body bytes one client (IPv4 address or IPv6 /64) may send per day, in MB. */
    ANALYTICS_DAILY_MB_PER_CLIENT: intEnv(10, 1, 100_000),
    /** Memory the analytics stream may take in Redis before its oldest entries go, in MB. */
    ANALYTICS_STREAM_MAX_MB: intEnv(128, 1, 100_000),
    /** Live-figure requests per client per minute (each open page asks every 30 s). */
    LIVE_STATS_RATE_LIMIT_PER_IP: intEnv(120, 1, 10_000_000),
    /**
     * Requests to the marketing withdrawal links per client per hour: a person needs two (the
     * page, its button); mail providers post their users' one-click withdrawals from shared addresses.
     */
    WITHDRAWAL_RATE_LIMIT_PER_IP: intEnv(120, 1, 10_000_000),
    /**
     * Every per-client limit of the public intake also counts the client's network, with
     * this many times the client's allowance (docs/decisions/053): an IPv6 /48 (one site,
     * above its /64s) and an IPv4 /24 (above its addresses; more, for carriers' NAT).
     */
    RATE_LIMIT_IPV6_48_FACTOR: intEnv(16, 1, 65_536),
    RATE_LIMIT_IPV4_24_FACTOR: intEnv(32, 1, 256),
    /** Keys the suppression list's hashes: withdrawals record it, the admin shows it. */
    ...suppressionEnv,
    /**
     * express "trust proxy": how many proxies, or which proxy addresses, sit in front of us.
     * Required in production (see requireTrustProxyInProduction); `loopback` elsewhere.
     */
    TRUST_PROXY: trustProxyEnv.optional(),
    /** Says that a reverse proxy on this machine forwards to the API: only then may production trust loopback. */
    BEHIND_LOCAL_PROXY: z.stringbool({ error: 'must be true or false' }).default(false),
    /** Read only to tell the admin whether leads reach a CRM (the worker delivers them). */
    CRM_WEBHOOK_URL: httpUrl.optional(),
    GUIDES_DIR: z.string().min(1).default('guides/dist'),
    WEB_BUILD_DIR: z.string().min(1).default('web/build/client'),
    /** The provider named in the footer of the pages the API renders itself. */
    ...providerEnv,
    GA_MEASUREMENT_ID: z
      .string()
      .regex(/^G-[A-Z0-9]{4,20}$/, { error: 'must look like G-XXXXXXXXXX' })
      .optional(),
    /**
     * The offer (decision 047): places are counted from OFFER_STARTS_AT (all places ever when
     * unset); once OFFER_ENDS_AT has passed or FREE_PLACES_TOTAL (> 0) places are taken, the
     * lead intake answers 410 and the pages show that the offer has ended.
     */
    OFFER_STARTS_AT: isoDateTime.optional(),
    OFFER_ENDS_AT: isoDateTime.optional(),
    FREE_PLACES_TOTAL: intEnv(0, 0, 10_000_000),
    /**
     * People besides the visitor that "visitors online" and "others reading this page" must
     * count before the widgets show them (docs/decisions/033); 0 shows every figure.
     */
    SOCIAL_PROOF_MIN_OTHERS: intEnv(3, 0, 10_000),
    /**
     * When the lead and data-rights forms ask for a proof-of-work (docs/decisions/028):
     * `auto` once a client or all clients together pass the thresholds below, `always`, or `off`.
     */
    CHALLENGE_MODE: z.enum(['auto', 'always', 'off'], { error: 'must be auto, always or off' }).default('auto'),
    /** The window the thresholds count form submissions in. */
    CHALLENGE_WINDOW_SECONDS: intEnv(600, 10, 24 * 3600),
    /** Submissions one client (an IPv4 address, an IPv6 /64) makes per window without a challenge. */
    CHALLENGE_CLIENT_THRESHOLD: intEnv(5, 1, 10_000_000),
    /** Submissions of all clients together per window without a challenge. */
    CHALLENGE_GLOBAL_THRESHOLD: intEnv(300, 1, 100_000_000),
    /** PBKDF2 iterations per attempt; a solution takes about 256 attempts. */
    CHALLENGE_COST: intEnv(5000, 1, 1_000_000),
    /**
     * The no-worker alert (decision 058): minutes without a worker heartbeat after which the
     * API opens it and sends it itself, by SMTP_URL/ALERT_EMAIL_TO and ALERT_WEBHOOK_URL.
     */
    WORKER_HEARTBEAT_ALERT_MINUTES: intEnv(3, 1, 1440),
    ...alertChannelEnv,
    /** Google Ads offline conversions: names, value, the scheduled URL's credentials (decision 062). */
    ...googleAdsEnv,
    /**
     * Read only to know whether the Meta Conversions API is on (both set, decision 061): the
     * intake stores a lead's upload only then. The worker checks them and alone uses the
     * token; the API keeps only whether it is set (metaConversionsOn), never its value.
     */
    META_PIXEL_ID: z.string().optional(),
    META_CAPI_ACCESS_TOKEN: z.string().optional(),
  })
  .superRefine(requireTwilioSettings)
  .superRefine(requireHttpsInProduction)
  .superRefine(requireTrustProxyInProduction)
  .superRefine(requireSuppressionSecretInProduction)
  .superRefine(requireOfferEndAfterStart)
  .superRefine(requireProviderInProduction)
  .superRefine(requireSecondFactorInProduction)
  .superRefine(requireAlertWebhookSecret)
  .superRefine(requireGoogleAdsExportCredentials)
  .transform(({ META_PIXEL_ID, META_CAPI_ACCESS_TOKEN, ...config }) => ({
    ...config,
    TRUST_PROXY: config.TRUST_PROXY ?? DEVELOPMENT_TRUST_PROXY,
    metaConversionsOn: META_PIXEL_ID !== undefined && META_CAPI_ACCESS_TOKEN !== undefined,
  }));

export type ApiConfig = z.output<typeof apiEnvSchema>;

export const loadApiConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfigOrExit(apiEnvSchema, env);
