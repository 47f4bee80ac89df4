import type { Knex } from 'knex';
import { OPERATOR_TIME_ZONE } from '../analytics-rules';
import { GUIDE_LINK_EMAIL } from '../jobs/email';
import { preparedStatement } from '../server/prepared-statement';
import {
  DeliveryTransitionError,
  SMS_FAILED_STATUSES,
  SMS_HELD,
  SMS_HAND_BACK_FROM,
  SMS_HANDED_OVER,
  SMS_STATUSES,
  SMS_TRANSITIONS,
  smsStatusRank,
  type SmsStatus,
  type Transition,
} from './delivery-statuses';
import { insertVerificationDeliverySql } from './crm-deliveries';
import { openSmsPriceLookup, PRICED_PROVIDER, SMS_PRICED_STATUSES } from './sms-prices';
import { dueRows, isClaimable, isTakeOver, sqlList, statusOf, type DueOptions } from './delivery-table';
import {
  BUDGET_ADDRESS_KEPT_MS,
  BUDGET_WINDOWS,
  budgetCheckValues,
  budgetExceededBy,
  budgetName,
  countOneMore,
  exceededBudget,
  fullKeys,
  isFull,
  pruneSmsBudgetCounts,
  smsBudgetUsage,
  untrustedLimits,
  type Budget,
  type BudgetSubject,
  type Counts,
  type SmsBudgetLimits,
  type WindowLimits,
} from './sms-budget';

/**
 * sms_messages and its timeline, sms_events: every write to them. Each status change
 * appends a timeline entry in the same statement. The SMS of a lead is created with the
 * lead (api/src/leads/leads.repo.ts, one statement for a whole batch of leads).
 */

export interface SmsToSend {
  sms_id: number;
  status: SmsStatus;
  attempts: number;
  /** When the status last changed: for a claim, when it was taken. */
  updated_at: Date;
  nome: string;
  telefono: string;
  /** SHA-256 of the link's token; null until the link is first sent (decision 029). */
  token_hash: string | null;
  expires_at: Date;
  /** Another lead with this phone already got an SMS in the last 24 hours. */
  phone_recently_served: boolean;
  /** An admin released it: sent even though an SMS budget is reached. */
  budget_exempt: boolean;
  /** The lead's client network (its stored, truncated `ip_address`), counted by the network budget. */
  network: string | null;
  /** The keyed digest of the lead's client address, counted by the address budget. */
  budget_address: string | null;
  /** The lead showed a visit before the form (decision 052): may use the reserved share. */
  trusted: boolean;
  /** Seconds since the lead was stored, by PostgreSQL's clock (for the latency metrics). */
  seconds_since_lead: number;
  /** The guide was downloaded already (from the link sent by email while the SMS was held). */
  guide_downloaded: boolean;
}

// The statements of every SMS, prepared once per connection (see prepared-statement.ts).
const loadStatement = preparedStatement<SmsToSend>(
  'load-sms-to-send',
  `
SELECT s.id AS sms_id, s.status, s.attempts, s.updated_at, s.budget_exempt, s.budget_address, s.trusted,
  l.ip_address AS network, l.nome, l.telefono, t.token_hash, t.expires_at,
  EXTRACT(EPOCH FROM now() - l.created_at)::float8 AS seconds_since_lead,
  EXISTS (
    SELECT 1 FROM ebook_requests other
    JOIN sms_messages served ON served.lead_id = other.id
    WHERE other.telefono = l.telefono AND other.id <> l.id
      AND served.status IN (${sqlList(SMS_HANDED_OVER)})
      AND served.sent_at > now() - interval '24 hours'
  ) AS phone_recently_served,
  EXISTS (SELECT 1 FROM guide_downloads d WHERE d.lead_id = l.id) AS guide_downloaded
FROM sms_messages s
JOIN ebook_requests l ON l.id = s.lead_id
JOIN download_tokens t ON t.lead_id = s.lead_id
WHERE s.lead_id = :leadId
`,
);

/**
 * One transition and its timeline entry, atomically. The row lock makes a second,
 * concurrent claim wait, then find the row no longer in a `from` status.
 */
const TRANSITION_SQL = `
WITH changed AS (
  UPDATE sms_messages SET
    status = :to,
    attempts = COALESCE(:attempts, attempts),
    updated_at = now(),
    provider = COALESCE(:provider, provider),
    provider_message_id = COALESCE(:providerMessageId, provider_message_id),
    sent_at = CASE WHEN :to = '${SMS_TRANSITIONS.recordSent.to}' THEN now() ELSE sent_at END,
    failed_at = CASE WHEN :to = '${SMS_TRANSITIONS.recordFailure.to}' THEN now() ELSE failed_at END,
    error_code = :errorCode,
    error_message = :errorMessage
  WHERE id = :smsId AND status = ANY(:from::text[])
    AND (:olderThanSeconds::float8 = 0 OR updated_at < now() - make_interval(secs => :olderThanSeconds::float8))
  RETURNING id
)
INSERT INTO sms_events (sms_message_id, status, provider_status, error_code, error_message)
SELECT id, :to, :providerStatus::text, :errorCode, :errorMessage FROM changed
`;
const transitionStatement = preparedStatement('sms-transition', TRANSITION_SQL);

interface SmsChange {
  attempts?: number | null;
  provider?: string | null;
  providerMessageId?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** Timeline note on who moved it (for example the admin's resend). */
  providerStatus?: string | null;
  olderThanMs?: number;
}

async function move(db: Knex, smsId: number, transition: Transition<SmsStatus>, change: SmsChange = {}) {
  const values = {
    smsId,
    from: transition.from,
    to: transition.to,
    attempts: change.attempts ?? null,
    provider: change.provider ?? null,
    providerMessageId: change.providerMessageId ?? null,
    errorCode: change.errorCode ?? null,
    errorMessage: change.errorMessage ?? null,
    providerStatus: change.providerStatus ?? null,
    olderThanSeconds: (change.olderThanMs ?? 0) / 1000,
  };
  // A prepared statement takes a connection of its own from the pool: inside a
  // transaction the statement must run on the transaction's connection instead.
  const result = db.isTransaction
    ? await db.raw<{ rowCount: number }>(TRANSITION_SQL, values)
    : await transitionStatement(db, values);
  return result.rowCount === 1;
}

export async function loadSmsToSend(db: Knex, leadId: number): Promise<SmsToSend | undefined> {
  return (await loadStatement(db, { leadId })).rows[0];
}

export const smsStatus = (db: Knex, smsId: number) => statusOf<SmsStatus>(db, 'sms_messages', smsId);

/** True when a worker may try the SMS: claim it, or take over a claim. */
export const smsIsClaimable = (status: SmsStatus) => isClaimable(SMS_TRANSITIONS, status);

/** The SMS budgets and the clock they are counted by (a test moves it past a window). */
export interface SmsBudgetCheck {
  limits: SmsBudgetLimits;
  now(): Date;
}

export type SmsClaim = 'claimed' | 'taken-over' | { held: Budget } | null;

/** What an SMS row and its lead say about the budgets an SMS counts against (decision 052). */
export interface SmsBudgetFields {
  network: string | null;
  budget_address: string | null;
  trusted: boolean;
}

const subjectOf = (sms: { telefono: string } & SmsBudgetFields): BudgetSubject => ({
  telefono: sms.telefono,
  network: sms.network,
  address: sms.budget_address,
  trusted: sms.trusted,
});

/**
 * The claim of a new SMS within the budgets, in one statement: the function (migration
 * 20261125090000) takes the SMS's row, then the budget lock, counts and claims, and the
 * statement's commit frees the lock at once. A transaction driven from here held the lock
 * for its round trips and for every turn of a busy worker's event loop in between.
 */
const claimWithinBudgetsStatement = preparedStatement<{
  outcome: 'claimed' | 'over' | 'gone';
  budget_scope: string | null;
  sms_hour: number | null;
  sms_day: number | null;
}>(
  'claim-sms-within-budgets',
  `SELECT * FROM claim_sms_within_budgets(:smsId, :from::text[], :to, :attempts, :exempt,
  :scopes::text[], :hourLimits::int[], :dayLimits::int[], :hourStart, :dayStart, :minute, :lockKey)`,
);

/**
 * Takes the SMS (`sending`, with a timeline entry) before the provider is called; null
 * when another run holds it, or it was sent or given up meanwhile. `attempts` counts
 * this attempt. A claim older than `claimTimeoutMs` was left by a worker that stopped
 * while it called the provider, and is taken over ('taken-over'): the provider may have
 * taken that SMS, so ask it before sending again.
 *
 * A new claim counts the SMS budgets under a lock every worker takes for "count, then
 * claim", so concurrent claims cannot all take the last place: when one more SMS to this
 * number would exceed a budget, the SMS is held instead (`{ held }`), unless an admin
 * released it (then it is claimed and counted whatever the budgets say). A takeover is
 * already counted (its claim is).
 */
export async function claimSms(
  db: Knex,
  sms: { sms_id: number; status: SmsStatus; telefono: string; budget_exempt: boolean } & SmsBudgetFields,
  attempts: number,
  claimTimeoutMs: number,
  budget: SmsBudgetCheck,
): Promise<SmsClaim> {
  if (isTakeOver(SMS_TRANSITIONS, sms.status)) {
    const taken = await move(db, sms.sms_id, SMS_TRANSITIONS.takeOver, {
      attempts,
      olderThanMs: claimTimeoutMs,
      errorMessage: `claim taken over after ${claimTimeoutMs / 1000} s: its worker stopped mid-send`,
    });
    return taken ? 'taken-over' : null;
  }
  const { rows } = await claimWithinBudgetsStatement(db, {
    smsId: sms.sms_id,
    from: SMS_TRANSITIONS.claim.from,
    to: SMS_TRANSITIONS.claim.to,
    attempts,
    exempt: sms.budget_exempt,
    ...budgetCheckValues(subjectOf(sms), budget.now(), budget.limits),
  });
  const outcome = rows[0]?.outcome;
  if (outcome === 'claimed') return 'claimed';
  if (outcome !== 'over') return null;
  const usage = rows.map((row) => ({ scope: row.budget_scope!, hour: row.sms_hour!, day: row.sms_day! }));
  const exceeded = budgetExceededBy(subjectOf(sms), usage, budget.limits);
  // The function found one more SMS over a budget, so one of them is reached.
  if (!exceeded) throw new Error(`SMS ${sms.sms_id}: over a budget by the database, within every one by its counts`);
  const held = await move(db, sms.sms_id, SMS_TRANSITIONS.hold, { errorMessage: `SMS budget reached: ${budgetName(exceeded)}` });
  return held ? { held: exceeded } : null;
}

/** The provider took the SMS (now, or, after a takeover, before its worker stopped). */
export async function recordSmsSent(
  db: Knex,
  smsId: number,
  sent: { attempts: number; provider: string; providerMessageId: string; note?: string },
) {
  const moved = await move(db, smsId, SMS_TRANSITIONS.recordSent, {
    attempts: sent.attempts,
    provider: sent.provider,
    providerMessageId: sent.providerMessageId,
    errorMessage: sent.note ?? null,
  });
  if (moved) return true;
  // The provider's status callback (which names our SMS) came first and moved it on.
  const filled = await db('sms_messages')
    .where({ id: smsId, provider_message_id: sent.providerMessageId })
    .update({ attempts: sent.attempts, provider: sent.provider, sent_at: db.raw('COALESCE(sent_at, now())') });
  return filled === 1;
}

/** The provider refused or could not be reached: retried later, or given up (`final`). */
export const recordSmsFailure = (
  db: Knex,
  smsId: number,
  failure: { final: boolean; attempts: number; provider: string; errorCode: string | null; errorMessage: string },
) =>
  move(db, smsId, failure.final ? SMS_TRANSITIONS.recordFailure : SMS_TRANSITIONS.recordRetry, failure);

/**
 * The provider asked us to slow down: the job goes back to its queue without using an
 * attempt, so the claim goes back to what it was before (status and attempts) for its
 * next run. A claim taken over goes back to `retrying`: the provider was asked already.
 */
export function handBackSmsClaim(
  db: Knex,
  before: { sms_id: number; status: SmsStatus; attempts: number },
  reason: { provider: string; errorCode: string | null; errorMessage: string },
) {
  const to = isTakeOver(SMS_TRANSITIONS, before.status) ? SMS_TRANSITIONS.recordRetry.to : before.status;
  return move(db, before.sms_id, { from: SMS_HAND_BACK_FROM, to }, { ...reason, attempts: before.attempts });
}

/**
 * Taking over a claim, the provider could not be asked whether it got the SMS: the claim
 * goes back as it was (abandoned, with its time), so the next run asks again.
 */
export async function restoreAbandonedSmsClaim(db: Knex, before: { sms_id: number; attempts: number; updated_at: Date }) {
  await db('sms_messages')
    .where({ id: before.sms_id, status: SMS_TRANSITIONS.takeOver.to })
    .update({ attempts: before.attempts, updated_at: before.updated_at });
}

/** The phone already got the guide from another lead within 24 hours: nothing is sent. */
export const skipSms = (db: Knex, smsId: number, reason: string) =>
  move(db, smsId, SMS_TRANSITIONS.skip, { errorMessage: reason });

/**
 * The admin's resend (or retry of a failed job): the SMS goes back to pending, and an
 * expired download link gets new days so the resent SMS works. Refused while the SMS is
 * on its way; null when the lead has no SMS.
 */
export async function reopenSms(db: Knex, leadId: number, linkTtlDays: number, origin: string) {
  return db.transaction(async (trx) => {
    const sms = await trx('sms_messages')
      .where({ lead_id: leadId })
      .forUpdate()
      .first<{ id: number; status: SmsStatus; provider: string | null; provider_message_id: string | null }>('id', 'status', 'provider', 'provider_message_id');
    if (!sms) return null;
    const reopen = SMS_TRANSITIONS.reopen;
    if (!(reopen.from as readonly SmsStatus[]).includes(sms.status)) {
      throw new DeliveryTransitionError('sms', 'reopen', sms.status);
    }
    // Twilio bills the message being replaced: its price lookup opens (if its final report
    // has not opened it) and stays its own, whatever the new message costs (sms-prices.ts).
    if (sms.provider === PRICED_PROVIDER && sms.provider_message_id !== null) {
      await openSmsPriceLookup(trx, sms.id, sms.provider_message_id);
    }
    await trx('sms_messages')
      .where({ id: sms.id })
      // Late reports about the earlier SMS must not move the new one: forget its provider id.
      .update({
        status: reopen.to,
        provider_message_id: null,
        error_code: null,
        error_message: null,
        delivered_at: null,
        updated_at: trx.fn.now(),
      });
    await trx('sms_events').insert({ sms_message_id: sms.id, status: reopen.to, provider_status: origin });
    await trx('download_tokens')
      .where({ lead_id: leadId })
      .where('expires_at', '<', trx.raw(`now() + interval '1 day'`))
      .update({ expires_at: trx.raw(`now() + make_interval(days => ?)`, [linkTtlDays]) });
    return sms.id;
  });
}

const RANK_OF_CURRENT_STATUS = `CASE status ${SMS_STATUSES.map(
  (status) => `WHEN '${status}' THEN ${smsStatusRank(status)}`,
).join(' ')} END`;

/**
 * A provider report moves the SMS forward and appends it to the timeline, in one
 * statement; repeated, late or out-of-order reports (not above the current rank) change
 * nothing. The report names our SMS (`smsId`, from the callback URL) as well as the
 * provider's id, so a report that arrives before the worker recorded that id, or after
 * the worker stopped mid-send, still finds it.
 */
const providerReportStatement = preparedStatement<{ lead_id: number; seconds_since_lead: number; crm_delivery_id: number | null }>(
  'sms-provider-report',
  `
WITH changed AS (
  UPDATE sms_messages SET
    status = :status,
    updated_at = now(),
    provider_message_id = COALESCE(provider_message_id, :providerMessageId),
    sent_at = COALESCE(sent_at, now()),
    error_code = COALESCE(:errorCode, error_code),
    delivered_at = CASE WHEN :status = 'delivered' THEN now() ELSE delivered_at END,
    failed_at = CASE WHEN :status IN (${sqlList(SMS_FAILED_STATUSES)}) THEN now() ELSE failed_at END
  WHERE (provider_message_id = :providerMessageId
      OR (id = :smsId AND provider_message_id IS NULL AND status IN (${sqlList(SMS_TRANSITIONS.recordSent.from)})))
    AND ${RANK_OF_CURRENT_STATUS} < :rank
  RETURNING id, lead_id, provider, provider_message_id
), logged AS (
  INSERT INTO sms_events (sms_message_id, status, provider_status, error_code)
  SELECT id, :status, :providerStatus::text, :errorCode FROM changed
), priced AS (
  -- Final: Twilio bills this message; its price lookup opens (sms-prices.ts). Reports are
  -- Twilio's: a row whose provider the worker has not recorded yet is Twilio's too.
  INSERT INTO sms_prices (sms_id, provider_message_id)
  SELECT id, provider_message_id FROM changed
  WHERE :status IN (${sqlList(SMS_PRICED_STATUSES)}) AND coalesce(provider, '${PRICED_PROVIDER}') = '${PRICED_PROVIDER}'
  ON CONFLICT (provider_message_id) DO NOTHING
), reached AS (
  UPDATE ebook_requests l SET reachable_at = now()
  FROM changed
  WHERE l.id = changed.lead_id AND :status = 'delivered' AND l.reachable_at IS NULL
  RETURNING l.id
), told AS (${insertVerificationDeliverySql('lead.sms_delivered', 'reached')}
)
SELECT changed.lead_id, EXTRACT(EPOCH FROM now() - l.created_at)::float8 AS seconds_since_lead,
  (SELECT id FROM told) AS crm_delivery_id
FROM changed JOIN ebook_requests l ON l.id = changed.lead_id
`,
);

export interface ProviderReport {
  providerMessageId: string;
  /** Our SMS id, when the report carries it. */
  smsId: number | null;
  status: SmsStatus;
  providerStatus: string;
  errorCode: string | null;
}

/**
 * Applies a provider report; when the SMS changed, its lead's id and the seconds since
 * that lead was stored (by PostgreSQL's clock), else null. The first `delivered` of a
 * lead makes it reachable (decision 059) in the same statement, with its
 * lead.sms_delivered delivery for the CRM (`crmDeliveryId`, to enqueue; null otherwise).
 */
export async function applySmsProviderReport(
  db: Knex,
  report: ProviderReport,
): Promise<{ leadId: number; secondsSinceLead: number; crmDeliveryId: number | null } | null> {
  const { rows } = await providerReportStatement(db, {
    providerMessageId: report.providerMessageId,
    smsId: report.smsId,
    status: report.status,
    rank: smsStatusRank(report.status),
    providerStatus: report.providerStatus,
    errorCode: report.errorCode,
  });
  const row = rows[0];
  return row ? { leadId: row.lead_id, secondsSinceLead: row.seconds_since_lead, crmDeliveryId: row.crm_delivery_id } : null;
}

/** Leads whose SMS a worker should run now (see dueRows), and whether its claim was abandoned. */
export async function listSmsDue(db: Knex, options: DueOptions) {
  const rows = await dueRows(db, 'sms_messages', SMS_TRANSITIONS.claim.from, SMS_TRANSITIONS.takeOver.from, options).select<
    { lead_id: number; status: SmsStatus }[]
  >('lead_id', 'status');
  return rows.map((row) => ({ leadId: row.lead_id, abandoned: isTakeOver(SMS_TRANSITIONS, row.status) }));
}

/** Moves held SMS back to pending with a timeline entry each; their lead ids, trusted first, then oldest. */
async function unhold(db: Knex, smsIds: number[], transition: Transition<SmsStatus>, origin: string, exempt: boolean) {
  if (smsIds.length === 0) return [];
  const { rows } = await db.raw<{ rows: { lead_id: number }[] }>(
    `
WITH moved AS (
  UPDATE sms_messages SET status = :to, updated_at = now(), error_message = NULL,
    budget_exempt = budget_exempt OR :exempt
  WHERE id = ANY(:ids::int[]) AND status = ANY(:from::text[])
  RETURNING id, lead_id, created_at, trusted
), logged AS (
  INSERT INTO sms_events (sms_message_id, status, provider_status)
  SELECT id, :to, :origin FROM moved
)
SELECT lead_id FROM moved ORDER BY trusted DESC, created_at
`,
    { to: transition.to, from: transition.from, ids: smsIds, exempt, origin },
  );
  return rows.map((row) => row.lead_id);
}

/** Held SMS with their lead's number and client (the budgets' subject). */
const heldSms = (db: Knex) =>
  db('sms_messages as s').join('ebook_requests as l', 'l.id', 's.lead_id').where('s.status', SMS_HELD);

/** The calling codes of the countries whose budget `isFull` says is reached, as `+39`. */
const COUNTRY_CODES = { '+39': 'IT', '+41': 'CH' } as const;
const fullCountryCodes = (counts: Record<'IT' | 'CH', Counts>, limitOf: (country: 'IT' | 'CH') => WindowLimits) =>
  Object.entries(COUNTRY_CODES)
    .filter(([, country]) => isFull(counts[country], limitOf(country)))
    .map(([code]) => code);

/**
 * An address digest is needed only while an SMS may still be counted or discarded by it:
 * forgotten once its windows have passed, unless the SMS is still held.
 */
const forgetBudgetAddresses = (db: Knex, now: Date) =>
  db('sms_messages')
    .whereNotNull('budget_address')
    .where('created_at', '<', new Date(now.getTime() - BUDGET_ADDRESS_KEPT_MS))
    .whereNot('status', SMS_HELD)
    .update({ budget_address: null });

/**
 * Held SMS the budgets allow again, trusted first (decision 052), then oldest first, as
 * many as fit: back to pending (the caller enqueues their leads; the worker counts again
 * under the budget lock before it sends). Blocks, countries, networks, addresses, the
 * whole budget or, for untrusted SMS, the untrusted share still full are skipped in the
 * query, so a flood of held SMS behind a full scope never hides an honest one behind it.
 */
export async function resumeHeldSms(db: Knex, budget: SmsBudgetCheck, limit: number) {
  const now = budget.now();
  await pruneSmsBudgetCounts(db, now);
  await forgetBudgetAddresses(db, now);
  const usage = await smsBudgetUsage(db, now);
  const { limits } = budget;
  if (isFull(usage.global, limits.global)) return [];
  const untrusted = usage.untrusted;
  const untrustedGlobalFull = isFull(untrusted.global, untrustedLimits(limits.global, limits));
  const held = await heldSms(db)
    .whereRaw('substr(l.telefono, 2, 6) <> ALL(?::text[])', [fullKeys(usage.block, limits.block)])
    .whereRaw('substr(l.telefono, 1, 3) <> ALL(?::text[])', [fullCountryCodes(usage.country, (country) => limits.country[country])])
    .whereRaw(`coalesce(l.ip_address, '') <> ALL(?::text[])`, [fullKeys(usage.network, limits.network)])
    .whereRaw(`coalesce(s.budget_address, '') <> ALL(?::text[])`, [fullKeys(usage.address, limits.address)])
    .where((query) => {
      query.where('s.trusted', true);
      if (untrustedGlobalFull) return;
      query.orWhere((untrustedSms) =>
        untrustedSms
          .whereRaw('substr(l.telefono, 2, 6) <> ALL(?::text[])', [fullKeys(untrusted.block, untrustedLimits(limits.block, limits))])
          .whereRaw('substr(l.telefono, 1, 3) <> ALL(?::text[])', [
            fullCountryCodes(untrusted.country, (country) => untrustedLimits(limits.country[country], limits)),
          ]),
      );
    })
    .orderBy([
      { column: 's.trusted', order: 'desc' },
      { column: 's.created_at', order: 'asc' },
    ])
    .limit(limit)
    .select<({ id: number; telefono: string } & SmsBudgetFields)[]>('s.id', 'l.telefono', 'l.ip_address as network', 's.budget_address', 's.trusted');
  const chosen: number[] = [];
  for (const row of held) {
    const subject = subjectOf(row);
    if (exceededBudget(subject, usage, limits)) continue;
    countOneMore(subject, usage);
    chosen.push(row.id);
  }
  return unhold(db, chosen, SMS_TRANSITIONS.resume, 'budget-resume', false);
}

/**
 * Leads whose SMS has been held for at least `minutes` (SMS_HELD_EMAIL_AFTER_MINUTES) and
 * whose link has not gone by email yet: the promise of 2 minutes is broken, so it goes by
 * email too (the SMS still goes when released, unless the guide was downloaded by then).
 * Trusted leads first, as their SMS are.
 */
export async function heldLeadsToEmail(db: Knex, minutes: number, limit: number) {
  return db('sms_messages as s')
    .where('s.status', SMS_HELD)
    .where('s.updated_at', '<=', db.raw('now() - make_interval(mins => ?)', [minutes]))
    // One email per lead: the link already went by email, or is on its way.
    .whereNotExists(db('email_messages as m').whereRaw('m.lead_id = s.lead_id').where('m.kind', GUIDE_LINK_EMAIL))
    .orderBy([
      { column: 's.trusted', order: 'desc' },
      { column: 's.updated_at', order: 'asc' },
    ])
    .limit(limit)
    .pluck<number[]>('s.lead_id');
}

/**
 * The admin's "release": the held SMS (every one, or only the trusted ones) go back to
 * pending and are sent even though a budget is still reached (they still count against
 * the budgets). Their lead ids, trusted first, then oldest, for the caller to enqueue.
 */
export async function releaseHeldSms(db: Knex, origin: string, { trustedOnly = false }: { trustedOnly?: boolean } = {}) {
  const ids = await db('sms_messages')
    .where({ status: SMS_HELD, ...(trustedOnly ? { trusted: true } : {}) })
    .pluck<number[]>('id');
  return unhold(db, ids, SMS_TRANSITIONS.release, origin, true);
}

/**
 * Which held SMS an admin's discard takes (every given criterion must match): the number
 * block, the client network as the lead stores it, the client address digest, the
 * minutes the lead came in (`YYYY-MM-DDTHH:mm` in the operator's time zone, both
 * included), and only the untrusted ones.
 */
export interface HeldSmsCriteria {
  block?: string | undefined;
  network?: string | undefined;
  address?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  untrustedOnly?: boolean | undefined;
}

function heldMatching(db: Knex, criteria: HeldSmsCriteria) {
  const query = heldSms(db);
  if (criteria.block !== undefined) query.whereRaw('substr(l.telefono, 2, 6) = ?', [criteria.block]);
  if (criteria.network !== undefined) query.where('l.ip_address', criteria.network);
  if (criteria.address !== undefined) query.where('s.budget_address', criteria.address);
  const operatorTime = `(?::timestamp AT TIME ZONE '${OPERATOR_TIME_ZONE}')`;
  if (criteria.from !== undefined) query.whereRaw(`s.created_at >= ${operatorTime}`, [criteria.from]);
  if (criteria.to !== undefined) query.whereRaw(`s.created_at < ${operatorTime} + interval '1 minute'`, [criteria.to]);
  if (criteria.untrustedOnly) query.where('s.trusted', false);
  return query;
}

/** How many held SMS `criteria` match, and how many of them are trusted (what a discard would take). */
export async function countHeldSms(db: Knex, criteria: HeldSmsCriteria) {
  const row = await heldMatching(db, criteria).first<{ count: number; trusted: number }>(
    db.raw('count(*)::int AS count'),
    db.raw('count(*) FILTER (WHERE s.trusted)::int AS trusted'),
  );
  return { count: row?.count ?? 0, trusted: row?.trusted ?? 0 };
}

/**
 * The admin's "discard": the held SMS `criteria` match end as `skipped` with `reason`
 * and a timeline entry (`admin-discard`), in one statement; nothing is sent, and no
 * late-SMS email follows (only held SMS get one). How many were discarded.
 */
export async function discardHeldSms(db: Knex, criteria: HeldSmsCriteria, reason: string) {
  const discard = SMS_TRANSITIONS.discard;
  const { rows } = await db.raw<{ rows: { discarded: number }[] }>(
    `
WITH moved AS (
  UPDATE sms_messages SET status = ?, updated_at = now(), error_message = ?
  WHERE id IN (?) AND status = ANY(?::text[])
  RETURNING id
), logged AS (
  INSERT INTO sms_events (sms_message_id, status, provider_status, error_message)
  SELECT id, ?, 'admin-discard', ? FROM moved
)
SELECT count(*)::int AS discarded FROM moved
`,
    [discard.to, reason, heldMatching(db, criteria).select('s.id'), [...discard.from], discard.to, reason],
  );
  return rows[0]?.discarded ?? 0;
}

export interface SmsBudgetStatus {
  scope: Budget['scope'];
  key: string | null;
  window: Budget['window'];
  /** The part of the budget untrusted SMS may use (decision 052). */
  untrusted: boolean;
  count: number;
  limit: number;
  tripped: boolean;
}

/** Blocks and networks shown besides the tripped ones and those with held SMS: the busiest of the day. */
const BUSIEST_SHOWN = 3;
/** At most this many blocks, networks or addresses of each kind: the busiest, or those with the most held SMS. */
const GROUPS_SHOWN = 10;

/**
 * What the admin's alert shows: every budget with its count (global, each country, and
 * their untrusted share; the tripped blocks, networks and addresses, those with held SMS
 * and the busiest), whether it is tripped (one more SMS would exceed it), and the held
 * SMS: how many, how many trusted, and the blocks and networks with the most.
 */
export async function smsBudgetOverview(db: Knex, budget: SmsBudgetCheck) {
  const usage = await smsBudgetUsage(db, budget.now());
  const { limits } = budget;
  const status = (scope: Budget['scope'], key: string | null, window: Budget['window'], untrusted: boolean, count: number, limit: number) =>
    ({ scope, key, window, untrusted, count, limit, tripped: count >= limit }) satisfies SmsBudgetStatus;
  const totals = await heldSms(db).first<{ count: number; trusted: number; oldest: Date | null }>(
    db.raw('count(*)::int AS count'),
    db.raw('count(*) FILTER (WHERE s.trusted)::int AS trusted'),
    db.raw('min(s.created_at) AS oldest'),
  );
  const heldBy = (expression: string) =>
    heldSms(db)
      .groupByRaw(expression)
      .orderByRaw('count(*) DESC')
      .limit(GROUPS_SHOWN)
      .select<{ key: string; count: number }[]>(db.raw(`${expression} AS key`), db.raw('count(*)::int AS count'));
  const [heldByBlock, heldByNetwork] = await Promise.all([heldBy('substr(l.telefono, 2, 6)'), heldBy('l.ip_address')]);
  const withHeld = (rows: { key: string | null }[]) => new Set(rows.map((row) => row.key));

  /** The keys of `counts` worth showing: tripped, with held SMS, or among the busiest of the day. */
  const shown = (counts: Map<string, Counts>, limit: WindowLimits, held: Set<string | null>, busiest: number) =>
    [...counts.entries()]
      .sort(([, a], [, b]) => b.day - a.day)
      .filter(([key, value], index) => index < busiest || isFull(value, limit) || held.has(key))
      .slice(0, GROUPS_SHOWN + busiest);
  const blocks = shown(usage.block, limits.block, withHeld(heldByBlock), BUSIEST_SHOWN);
  const networks = shown(usage.network, limits.network, withHeld(heldByNetwork), BUSIEST_SHOWN);
  const addresses = shown(usage.address, limits.address, new Set(), 0).slice(0, GROUPS_SHOWN);
  const untrustedBlocks = shown(usage.untrusted.block, untrustedLimits(limits.block, limits), new Set(), 0).slice(0, GROUPS_SHOWN);

  const budgets: SmsBudgetStatus[] = BUDGET_WINDOWS.flatMap((window) => {
    const share = (limit: WindowLimits) => untrustedLimits(limit, limits)[window];
    return [
      status('global', null, window, false, usage.global[window], limits.global[window]),
      status('country', 'IT', window, false, usage.country.IT[window], limits.country.IT[window]),
      status('country', 'CH', window, false, usage.country.CH[window], limits.country.CH[window]),
      status('global', null, window, true, usage.untrusted.global[window], share(limits.global)),
      status('country', 'IT', window, true, usage.untrusted.country.IT[window], share(limits.country.IT)),
      status('country', 'CH', window, true, usage.untrusted.country.CH[window], share(limits.country.CH)),
      ...blocks.map(([block, counts]) => status('block', block, window, false, counts[window], limits.block[window])),
      ...untrustedBlocks.map(([block, counts]) => status('block', block, window, true, counts[window], share(limits.block))),
      ...networks.map(([network, counts]) => status('network', network, window, false, counts[window], limits.network[window])),
      ...addresses.map(([address, counts]) => status('address', address, window, false, counts[window], limits.address[window])),
    ];
  });
  return {
    budgets,
    tripped: budgets.some((entry) => entry.tripped),
    held: {
      count: totals?.count ?? 0,
      trusted: totals?.trusted ?? 0,
      oldestAt: totals?.oldest ?? null,
      byBlock: heldByBlock.map((row) => ({ block: row.key, count: row.count })),
      byNetwork: heldByNetwork.filter((row) => row.key !== null).map((row) => ({ network: row.key, count: row.count })),
    },
  };
}
