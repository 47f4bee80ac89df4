import { z } from 'zod';
import { TOUCH_FIELDS, type TouchField } from '../attribution-rules';
import { AD_CONSENT_STATES } from '../cookie-consent-rules';
import { EBOOK_TYPES } from '../lead-rules';
import { SMS_STATUSES } from '../deliveries/delivery-statuses';
import { GDPR_REQUEST_STATUSES } from '../gdpr-rules';
import { CONTACT_KINDS, WITHDRAWAL_SOURCES } from '../marketing-withdrawal';
import { adminMessages, smsBudgetMessages, validationMessages as m } from '../messages';
import { safeText } from '../text-rules';
import { leadCostsSchema } from './admin-costs';
import { leadConsentSchema } from './gdpr';

/**
 * The admin API's requests and answers (api/src/admin, web admin pages). Dates travel as
 * ISO strings; every list is paginated on the server.
 */

export const adminLoginSchema = z.object({
  username: safeText('Inserisci il nome utente')
    .trim()
    .min(1, { error: 'Inserisci il nome utente' })
    .max(100, { error: m.text }),
  password: z.string({ error: 'Inserisci la password' }).min(1).max(200, { error: m.text }),
});

export const adminSessionSchema = z.object({
  user: z.object({ id: z.number(), username: z.string(), isAdmin: z.boolean() }),
  /** Send it back in the X-CSRF-Token header of every state-changing request. */
  csrfToken: z.string(),
  expiresAt: z.string(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/**
 * Marks an admin request the browser sent on its own (a poll, a refetch) rather than for
 * something the admin did: it does not count as activity, so it never keeps a session
 * from idling out. Its presence can only end a session sooner (docs/decisions/054).
 */
export const ADMIN_BACKGROUND_HEADER = 'X-Admin-Background';

/** One-time recovery codes given at enrolment (and when regenerated). */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as stored and compared: 24 characters of the base32 alphabet (120 bits). */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{24}$/;
/** What an admin types, as compared: case, spaces and hyphens (the groups it is shown in) do not matter. */
export const normaliseRecoveryCode = (typed: string) => typed.toLowerCase().replace(/[\s-]+/g, '');
const TOTP_PATTERN = /^\d{6}$/;

/** The 6-digit code of the authenticator app ("123 456" as some apps show it is fine). */
const totpCode = z
  .string({ error: adminMessages.codeRequired })
  .transform((typed) => typed.replace(/\s+/g, ''))
  .pipe(z.string().min(1, { error: adminMessages.codeRequired }).regex(TOTP_PATTERN, { error: adminMessages.codeFormat }));

/** Enrolment's confirmation and the regeneration of recovery codes: a code of the app only. */
export const adminTotpSchema = z.object({ code: totpCode });

/** The login's second step: the app's code or one of the recovery codes. */
export const adminSecondFactorSchema = z.object({
  code: z
    .string({ error: adminMessages.loginCodeFormat })
    .transform(normaliseRecoveryCode)
    .pipe(
      z
        .string()
        .min(1, { error: adminMessages.loginCodeFormat })
        .refine((code) => TOTP_PATTERN.test(code) || RECOVERY_CODE_PATTERN.test(code), { error: adminMessages.loginCodeFormat }),
    ),
});
export const isTotpCode = (code: string) => TOTP_PATTERN.test(code);

/** What the app needs to add the account: the secret as a QR code (an SVG data: URL) and as text. */
export const adminEnrolmentSchema = z.object({
  /** Base32, as authenticator apps take it when typed. */
  secret: z.string(),
  otpauthUri: z.string(),
  qrCode: z.string(),
});
export type AdminEnrolment = z.infer<typeof adminEnrolmentSchema>;

/**
 * The answer of each login step: signed in (with the new recovery codes after an enrolment,
 * or how many are left after one was used), or the step still to take.
 */
export const adminLoginAnswerSchema = z.discriminatedUnion('step', [
  z.object({
    step: z.literal('signed-in'),
    session: adminSessionSchema,
    recoveryCodes: z.array(z.string()).optional(),
    recoveryCodesLeft: z.number().optional(),
  }),
  z.object({ step: z.literal('second-factor') }),
  z.object({ step: z.literal('enrol'), enrolment: adminEnrolmentSchema }),
]);
export type AdminLoginAnswer = z.infer<typeof adminLoginAnswerSchema>;

/** GET /api/admin/second-factor: whether it is required, since when the admin has it, codes left. */
export const adminSecondFactorStatusSchema = z.object({
  required: z.boolean(),
  enrolledAt: z.string().nullable(),
  recoveryCodesLeft: z.number(),
});
export type AdminSecondFactorStatus = z.infer<typeof adminSecondFactorStatusSchema>;

export const adminRecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type AdminRecoveryCodes = z.infer<typeof adminRecoveryCodesSchema>;

const touchResultShape = Object.fromEntries(TOUCH_FIELDS.map((field) => [field, z.string().nullable()])) as Record<
  TouchField,
  z.ZodNullable<z.ZodString>
>;

/** Query-string filters answer 400 in Italian when malformed (a repeated key arrives as an array). */
const invalid = { error: adminMessages.invalidFilter };
const optionalText = safeText(adminMessages.invalidFilter)
  .trim()
  .max(200, invalid)
  .optional()
  .transform((value) => value || undefined);
/** A real calendar day (no 2026-02-30), which PostgreSQL and the report range can use. */
const isoDay = z.iso
  .date({ error: adminMessages.invalidDay })
  // PostgreSQL has no year 0: "0000-01-01" passes the format but not the database.
  .refine((day) => day >= '1900-01-01', { error: adminMessages.invalidDay })
  .optional();
const page = z.coerce.number(invalid).int(invalid).min(1, invalid).default(1);
const pageSize = (largest: number, fallback: number) =>
  z.coerce.number(invalid).int(invalid).min(1, invalid).max(largest, invalid).default(fallback);

const yesNo = z.enum(['si', 'no'], invalid).optional();

/** Filters of the leads table and of its CSV export (query string). */
export const leadFiltersSchema = z.object({
  q: optionalText,
  from: isoDay,
  to: isoDay,
  landingPath: optionalText,
  source: optionalText,
  utmSource: optionalText,
  utmMedium: optionalText,
  utmCampaign: optionalText,
  utmTerm: optionalText,
  utmContent: optionalText,
  referrerHost: optionalText,
  /** `si`: leads with an ad click id (first or last touch); `no`: leads without one. */
  clickId: yesNo,
  /** Verified leads (decision 059): `si` reachable or engaged, `no` neither. */
  verified: yesNo,
  /** `si`: the SMS was reported delivered (reachable); `no`: not (yet). */
  reachable: yesNo,
  /** `si`: the guide was downloaded (engaged); `no`: not (yet). */
  engaged: yesNo,
  ebookType: z.enum(EBOOK_TYPES, invalid).optional(),
  country: z.enum(['IT', 'CH'], invalid).optional(),
  smsStatus: z.enum(SMS_STATUSES, invalid).optional(),
});
export type LeadFilters = z.output<typeof leadFiltersSchema>;

export const LEAD_ORDERS = ['desc', 'asc'] as const;
export type LeadOrder = (typeof LEAD_ORDERS)[number];
export const leadListQuerySchema = leadFiltersSchema.extend({
  page,
  pageSize: pageSize(200, 25),
  /** By date: newest first (default) or oldest first. */
  order: z.enum(LEAD_ORDERS, invalid).default('desc'),
});

export const leadSummarySchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  nome: z.string(),
  cognome: z.string(),
  email: z.string(),
  telefono: z.string(),
  country: z.string().nullable(),
  ebookType: z.string(),
  source: z.string(),
  landingPath: z.string().nullable(),
  /** The hero variant the lead saw, on a page under an A/B experiment (decision 041). */
  heroVariant: z.string().nullable(),
  /** The last touch's fields (utmSource ... referrerHost), as columns of the lead. */
  ...touchResultShape,
  /** The visit's first landing; all null for leads stored before it was recorded. */
  firstTouch: z.object(touchResultShape),
  smsStatus: z.string().nullable(),
  crmStatus: z.string().nullable(),
  /** When the SMS was first reported delivered (decision 059); null: not reachable (yet). */
  reachableAt: z.string().nullable(),
  /** When the guide was first downloaded; null: not engaged (yet). */
  engagedAt: z.string().nullable(),
  /**
   * The latest refusal of marketing of this lead's email or phone (the suppression list,
   * decision 048); null when neither is on it. A later request keeps its own consent.
   */
  marketingSuppressedAt: z.string().nullable(),
});
export type LeadSummary = z.infer<typeof leadSummarySchema>;

export const leadListSchema = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  items: z.array(leadSummarySchema),
});
export type LeadList = z.infer<typeof leadListSchema>;

export const leadDetailSchema = z.object({
  lead: leadSummarySchema.extend(leadConsentSchema.shape).extend({
    /** When the marketing consent of this request was withdrawn (or marketing refused); null if not. */
    marketingConsentWithdrawnAt: z.string().nullable(),
    /**
     * The ad consent when the lead was sent (Google Consent Mode v2, decision 049): granted
     * only with a marketing cookie consent recorded for the visitor.
     */
    adUserData: z.enum(AD_CONSENT_STATES),
    adPersonalization: z.enum(AD_CONSENT_STATES),
  }),
  /** The lead's entry on the suppression list: which of its contacts, since when, how. */
  suppression: z
    .object({ suppressedAt: z.string(), kinds: z.array(z.enum(CONTACT_KINDS)), source: z.enum(WITHDRAWAL_SOURCES) })
    .nullable(),
  sms: z
    .object({
      status: z.string(),
      provider: z.string().nullable(),
      providerMessageId: z.string().nullable(),
      attempts: z.number(),
      errorCode: z.string().nullable(),
      errorMessage: z.string().nullable(),
      sentAt: z.string().nullable(),
      deliveredAt: z.string().nullable(),
      /**
       * What Twilio billed for the lead's SMS, every message of it (a resend's too), per
       * currency (ISO 4217), as decimal strings; empty until one is priced (decision 060).
       */
      prices: z.array(z.object({ currency: z.string(), amount: z.string() })),
      /** Its messages still waiting for their price. */
      pricesPending: z.number(),
      /** Its messages whose price Twilio never reported (the lookup gave up). */
      pricesGivenUp: z.number(),
      timeline: z.array(
        z.object({
          status: z.string(),
          at: z.string(),
          providerStatus: z.string().nullable(),
          errorCode: z.string().nullable(),
          errorMessage: z.string().nullable(),
        }),
      ),
    })
    .nullable(),
  crm: z.array(
    z.object({
      id: z.number(),
      event: z.string(),
      status: z.string(),
      attempts: z.number(),
      responseStatus: z.number().nullable(),
      lastError: z.string().nullable(),
      createdAt: z.string(),
      deliveredAt: z.string().nullable(),
    }),
  ),
  emails: z.array(z.object({ kind: z.string(), status: z.string(), attempts: z.number(), sentAt: z.string().nullable() })),
  /** The conversions sent to (or fetched by) the ad platforms (decision 061), oldest first. */
  conversions: z.array(
    z.object({
      id: z.number(),
      /** `meta` or `google_ads`. */
      platform: z.string(),
      /** `lead` or `verified_lead`. */
      event: z.string(),
      eventId: z.string(),
      status: z.string(),
      attempts: z.number(),
      responseStatus: z.number().nullable(),
      /** The platform's answer in short (events received, trace id): no personal data. */
      responseSummary: z.string().nullable(),
      /** Why it failed or was skipped. */
      lastError: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
      sentAt: z.string().nullable(),
    }),
  ),
  download: z
    .object({ expiresAt: z.string(), downloadCount: z.number(), firstDownloadedAt: z.string().nullable() })
    .nullable(),
  /** The lead this one repeats within 24 h of the same phone (it got no SMS of its own). */
  repeatOf: z.number().nullable(),
});
export type LeadDetail = z.infer<typeof leadDetailSchema>;

export const queueStatsSchema = z.object({
  queues: z.array(
    z.object({
      name: z.string(),
      waiting: z.number(),
      active: z.number(),
      delayed: z.number(),
      failed: z.number(),
      completed: z.number(),
      /**
       * Of the completed jobs, those whose delivery was skipped, not made (the CRM queue:
       * no CRM configured; the conversions queue: Meta not configured, or no consent any
       * more); null for queues without skipped deliveries.
       */
      skipped: z.number().nullable(),
      /** Seconds the oldest waiting job has waited, null when none waits. */
      oldestWaitingSeconds: z.number().nullable(),
    }),
  ),
  analytics: z.object({
    /** Entries waiting in the stream (each one request's events). */
    length: z.number(),
    pending: z.number(),
    lag: z.number().nullable(),
    /** Events set aside because PostgreSQL refused them (or unreadable entries). */
    deadLetters: z.object({
      /** Ever set aside. */
      total: z.number(),
      /** Still kept for a look (the most recent ones). */
      kept: z.number(),
      latest: z.array(z.object({ at: z.string(), reason: z.string() })),
    }),
  }),
  sms: z.object({
    ratePerSecond: z.number(),
    /** Seconds to send what waits at the configured rate. */
    projectedDrainSeconds: z.number(),
    /** The 2-minute promise is at risk. */
    promiseAtRisk: z.boolean(),
  }),
});
export type QueueStats = z.infer<typeof queueStatsSchema>;

/** GET /api/admin/configuration: settings the operator should know about. */
export const adminConfigurationSchema = z.object({
  /** CRM_WEBHOOK_URL is set: leads are forwarded to a CRM. */
  crmConfigured: z.boolean(),
});
export type AdminConfiguration = z.infer<typeof adminConfigurationSchema>;

export const failedJobsSchema = z.object({
  jobs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      failedReason: z.string().nullable(),
      attemptsMade: z.number(),
      failedAt: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type FailedJobs = z.infer<typeof failedJobsSchema>;

export const dateRangeQuerySchema = z.object({
  from: isoDay,
  to: isoDay,
});

/** The funnel's filters: each matches its column exactly ("(direct)": landings without utm_source). */
export const funnelQuerySchema = dateRangeQuerySchema.extend({
  landingPath: optionalText,
  utmSource: optionalText,
  utmMedium: optionalText,
  utmCampaign: optionalText,
  utmTerm: optionalText,
  utmContent: optionalText,
  heroVariant: optionalText,
});

export const funnelReportSchema = z.object({
  days: z.array(
    z.object({
      day: z.string(),
      landingPath: z.string(),
      /** The landing's campaign: "(direct)" without utm_source, "" for any other field it lacks. */
      utmSource: z.string(),
      utmMedium: z.string(),
      utmCampaign: z.string(),
      utmTerm: z.string(),
      utmContent: z.string(),
      /** The hero variant shown (decision 041); "" on pages without experiment. */
      heroVariant: z.string(),
      landing: z.number(),
      formView: z.number(),
      formStart: z.number(),
      formSubmit: z.number(),
      success: z.number(),
      /**
       * The leads of the day and split, as stored (not sessions), whose SMS was since delivered
       * and whose guide was since opened (decision 059); a split with such leads and no landing
       * recorded (a form sent without JavaScript) has its own row, without visits.
       */
      smsDelivered: z.number(),
      guideOpened: z.number(),
    }),
  ),
  timeOnPage: z.array(z.object({ path: z.string(), exits: z.number(), medianSeconds: z.number(), averageSeconds: z.number() })),
  abandonment: z.array(z.object({ path: z.string(), fieldName: z.string(), sessions: z.number() })),
  timeToSms: z.array(z.object({ day: z.string(), sent: z.number(), p50Seconds: z.number(), p95Seconds: z.number() })),
});
export type FunnelReport = z.infer<typeof funnelReportSchema>;

export const consentReportSchema = z.object({
  /** Visitors whose latest choice falls in the range. */
  choices: z.number(),
  analytics: z.number(),
  marketing: z.number(),
  preferences: z.number(),
});
export type ConsentReport = z.infer<typeof consentReportSchema>;

/** GET /api/admin/data-requests?status=&page= */
export const dataRequestListQuerySchema = z.object({
  status: z.enum(GDPR_REQUEST_STATUSES, invalid).optional(),
  page,
  pageSize: pageSize(200, 50),
});

export const dataRequestListSchema = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  items: z.array(
    z.object({
      id: z.number(),
      /** null once erased (a completed deletion). */
      email: z.string().nullable(),
      requestType: z.string(),
      status: z.string(),
      submittedAt: z.string(),
      confirmedAt: z.string().nullable(),
      processedAt: z.string().nullable(),
      /** Username of the admin who accepted or rejected it. */
      processedBy: z.string().nullable(),
      completedAt: z.string().nullable(),
      notes: z.string().nullable(),
      /** What the requester says is wrong (rectifications). */
      details: z.string().nullable(),
      /** The leads stored with the request's address (to rectify or check). */
      leadIds: z.array(z.number()),
    }),
  ),
});
export type DataRequestList = z.infer<typeof dataRequestListSchema>;

/** GET /api/admin/sms-budget: every SMS budget against its count, and the held SMS (decisions 025, 052). */
export const smsBudgetOverviewSchema = z.object({
  budgets: z.array(
    z.object({
      scope: z.enum(['global', 'country', 'block', 'network', 'address']),
      /**
       * The country (IT, CH), the number block (first 6 digits), the client network (as
       * leads store it: IPv4 /24, IPv6 /48) or the address digest; null for the global budget.
       */
      key: z.string().nullable(),
      window: z.enum(['hour', 'day']),
      /** The part of a global, country or block budget untrusted SMS may use. */
      untrusted: z.boolean(),
      count: z.number(),
      limit: z.number(),
      /** One more SMS counted here would be held. */
      tripped: z.boolean(),
    }),
  ),
  tripped: z.boolean(),
  held: z.object({
    count: z.number(),
    /** Of them, SMS of trusted leads (a visit seen before the form). */
    trusted: z.number(),
    oldestAt: z.string().nullable(),
    /** The blocks and networks with the most held SMS (at most 10 each). */
    byBlock: z.array(z.object({ block: z.string(), count: z.number() })),
    byNetwork: z.array(z.object({ network: z.string(), count: z.number() })),
  }),
});
export type SmsBudgetOverview = z.infer<typeof smsBudgetOverviewSchema>;

/** POST /api/admin/sms-budget/release: every held SMS, or only the trusted ones. */
export const releaseHeldSmsSchema = z.object({ trustedOnly: z.boolean().default(false) });

const ipAddress = z.union([z.ipv4(), z.ipv6()]);
const isIpAddress = (text: string) => ipAddress.safeParse(text).success;
/** An IPv4 /24 or an IPv6 /48 (what a lead stores), or an address of one: its network is meant. */
const isClientNetwork = (text: string) => {
  const [address = '', length, ...rest] = text.split('/');
  return rest.length === 0 && isIpAddress(address) && (length === undefined || length === (address.includes(':') ? '48' : '24'));
};
/** A minute as the browser's datetime-local field gives it (the operator's time zone is meant). */
const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:00)?$/;
const blankToUndefined = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
const optionalCriterion = (check: z.ZodType<string, string>) => z.string().optional().transform(blankToUndefined).pipe(check.optional());
const atMinute = (value: string) => value.slice(0, 16);

/**
 * GET /api/admin/sms-budget/held (the query) and POST /api/admin/sms-budget/discard (the
 * body): which held SMS, by every criterion given (at least one of block, network,
 * address or time): the number block, the client's network or address, and the minutes
 * (Europe/Rome, both included) the leads came in; optionally only the untrusted ones.
 */
export const heldSmsCriteriaSchema = z
  .object({
    block: optionalCriterion(z.string().regex(/^\d{6}$/, { error: smsBudgetMessages.invalidBlock })),
    network: optionalCriterion(z.string().refine(isClientNetwork, { error: smsBudgetMessages.invalidNetwork })),
    address: optionalCriterion(z.string().refine(isIpAddress, { error: smsBudgetMessages.invalidAddress })),
    from: optionalCriterion(z.string().regex(LOCAL_MINUTE, { error: smsBudgetMessages.invalidTime }).transform(atMinute)),
    to: optionalCriterion(z.string().regex(LOCAL_MINUTE, { error: smsBudgetMessages.invalidTime }).transform(atMinute)),
    untrustedOnly: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
      .default(false),
  })
  .refine((criteria) => [criteria.block, criteria.network, criteria.address, criteria.from, criteria.to].some(Boolean), {
    error: smsBudgetMessages.noCriteria,
    path: ['criteria'],
  })
  .refine((criteria) => !criteria.from || !criteria.to || criteria.from <= criteria.to, {
    error: smsBudgetMessages.invalidRange,
    path: ['to'],
  });
export type HeldSmsCriteriaInput = z.input<typeof heldSmsCriteriaSchema>;
export type HeldSmsCriteriaQuery = z.output<typeof heldSmsCriteriaSchema>;

/** GET /api/admin/sms-budget/held: how many held SMS the criteria match, and how many of them are trusted. */
export const heldSmsCountSchema = z.object({ count: z.number(), trusted: z.number() });
export type HeldSmsCount = z.infer<typeof heldSmsCountSchema>;

/** Days of the overview's breakdowns by page and campaign (GET /api/admin/overview?days=). */
export const OVERVIEW_PERIODS = ['1', '7', '30'] as const;
export const overviewQuerySchema = z.object({
  days: z.enum(OVERVIEW_PERIODS, { error: adminMessages.invalidPeriod }).default('7').transform(Number),
});

const smsTiming = z.object({
  /** SMS measured: accepted by the provider (or delivered) in the window. */
  count: z.number(),
  p50Seconds: z.number().nullable(),
  p95Seconds: z.number().nullable(),
  /** Of those, how many within the 2-minute promise. */
  withinPromise: z.number(),
});

/**
 * Of a group's leads, how many are reachable (SMS delivered), engaged (guide opened) and
 * verified (either; decision 059), as they stand now: a lead of the period verified since counts.
 */
const verificationCounts = { reachable: z.number(), engaged: z.number(), verified: z.number() };
export type VerificationCounts = { [K in keyof typeof verificationCounts]: number };

/** GET /api/admin/overview: the admin's first screen. Days are Europe/Rome calendar days. */
export const overviewSchema = z.object({
  generatedAt: z.string(),
  /** The 2-minute promise, in seconds. */
  promiseSeconds: z.number(),
  leads: z.object({
    today: z.number(),
    last7Days: z.number(),
    last30Days: z.number(),
    /** The last 30 days, oldest first, today last; days without leads included. */
    byDay: z.array(z.object({ day: z.string(), leads: z.number() })),
  }),
  /** The breakdowns' period: the last `days` days, today included. */
  days: z.number(),
  /** The period's leads, and how many of them are verified (decision 059). */
  verification: z.object({ leads: z.number(), ...verificationCounts }),
  /** Visitors: sessions landing on that page (the funnel's "landing" step, decision 016). */
  byLandingPage: z.array(z.object({ landingPath: z.string(), visitors: z.number(), leads: z.number(), ...verificationCounts })),
  /** The funnel's campaign key; "(direct)" without one. */
  bySource: z.array(z.object({ utmSource: z.string(), visitors: z.number(), leads: z.number(), ...verificationCounts })),
  /**
   * Per campaign, all five UTM fields as the funnel splits them: sessions that landed with
   * it (the funnel's landings), and its leads; "" for a field it lacks.
   */
  byCampaign: z.array(
    z.object({
      utmSource: z.string(),
      utmMedium: z.string(),
      utmCampaign: z.string(),
      utmTerm: z.string(),
      utmContent: z.string(),
      visitors: z.number(),
      leads: z.number(),
      ...verificationCounts,
    }),
  ),
  /** Leads with an ad platform's click id (first or last touch: gclid, gbraid, wbraid, fbclid, msclkid, ttclid) and without. */
  byAdClick: z.array(z.object({ adClick: z.boolean(), leads: z.number(), ...verificationCounts })),
  /** Each A/B experiment's hero variants: sessions that viewed the variant, and its leads (decision 041). */
  byVariant: z.array(
    z.object({
      experimentName: z.string(),
      landingPath: z.string(),
      variantLabel: z.string(),
      visitors: z.number(),
      leads: z.number(),
      ...verificationCounts,
    }),
  ),
  sms: z.object({
    /** From the request (or a resend) to the provider accepting the SMS, and to the handset's delivery report. */
    toProvider: z.object({ last24Hours: smsTiming, last7Days: smsTiming }),
    toDelivered: z.object({ last24Hours: smsTiming, last7Days: smsTiming }),
    /** Failed or undelivered SMS of the last 7 days by provider error code (null: none given). */
    failuresByReason: z.array(
      z.object({ errorCode: z.string().nullable(), count: z.number(), lastMessage: z.string().nullable(), lastAt: z.string() }),
    ),
    held: z.object({ count: z.number(), oldestAt: z.string().nullable() }),
  }),
  crm: z.object({
    /** Waiting to be posted (pending, retrying or being sent). */
    backlog: z.number(),
    oldestBacklogAt: z.string().nullable(),
    retrying: z.number(),
    /** Given up on in the last 7 days. */
    failedLast7Days: z.number(),
    deliveredLast24Hours: z.number(),
    skippedLast24Hours: z.number(),
    lastError: z.object({ at: z.string(), message: z.string().nullable(), httpStatus: z.number().nullable() }).nullable(),
  }),
  /** The offer as configured, its places taken since its start, and whether it has ended and why (decision 047). */
  offer: z.object({
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    /** null: no cap (FREE_PLACES_TOTAL=0). */
    placesTotal: z.number().nullable(),
    placesTaken: z.number(),
    endReason: z.enum(['deadline', 'places']).nullable(),
  }),
  /** What the period's leads cost, per campaign and day (decision 060). */
  costs: leadCostsSchema,
});
export type Overview = z.infer<typeof overviewSchema>;
