import type { Knex } from 'knex';

/**
 * The SMS budgets (decision 025): how many SMS were handed over in the rolling hour and
 * day, in total, per country and per number block, against the configured limits. The
 * counts live in PostgreSQL beside the deliveries, written in the claim's transaction:
 * after an outage of anything else, they are still right.
 */

export const BUDGET_WINDOWS = ['hour', 'day'] as const;
export type BudgetWindow = (typeof BUDGET_WINDOWS)[number];
const WINDOW_MS: Record<BudgetWindow, number> = { hour: 3600_000, day: 24 * 3600_000 };

/** Countries we send to, by the calling code of the number. */
export const BUDGET_COUNTRIES = { '39': 'IT', '41': 'CH' } as const;
export type BudgetCountry = (typeof BUDGET_COUNTRIES)[keyof typeof BUDGET_COUNTRIES];

export type WindowLimits = Record<BudgetWindow, number>;

export interface SmsBudgetLimits {
  global: WindowLimits;
  country: Record<BudgetCountry, WindowLimits>;
  block: WindowLimits;
}

/** The limits from the environment (smsBudgetEnv in config.ts). */
export function smsBudgetLimits(config: {
  SMS_BUDGET_GLOBAL_PER_HOUR: number;
  SMS_BUDGET_GLOBAL_PER_DAY: number;
  SMS_BUDGET_IT_PER_HOUR: number;
  SMS_BUDGET_IT_PER_DAY: number;
  SMS_BUDGET_CH_PER_HOUR: number;
  SMS_BUDGET_CH_PER_DAY: number;
  SMS_BUDGET_BLOCK_PER_HOUR: number;
  SMS_BUDGET_BLOCK_PER_DAY: number;
}): SmsBudgetLimits {
  return {
    global: { hour: config.SMS_BUDGET_GLOBAL_PER_HOUR, day: config.SMS_BUDGET_GLOBAL_PER_DAY },
    country: {
      IT: { hour: config.SMS_BUDGET_IT_PER_HOUR, day: config.SMS_BUDGET_IT_PER_DAY },
      CH: { hour: config.SMS_BUDGET_CH_PER_HOUR, day: config.SMS_BUDGET_CH_PER_DAY },
    },
    block: { hour: config.SMS_BUDGET_BLOCK_PER_HOUR, day: config.SMS_BUDGET_BLOCK_PER_DAY },
  };
}

/**
 * The number block of an E.164 number: its first 6 digits, calling code included
 * (+39 347 1234567 → 393471, +41 79 123 45 67 → 417912). Pumping buys premium or
 * partner ranges, so its numbers share a few blocks; real visitors spread over hundreds.
 */
export const numberBlock = (telefono: string) => telefono.replace(/^\+/, '').slice(0, 6);

/** IT or CH by calling code; null for a number of another country (never stored today). */
export function budgetCountry(telefonoOrBlock: string): BudgetCountry | null {
  const code = telefonoOrBlock.replace(/^\+/, '').slice(0, 2);
  return code in BUDGET_COUNTRIES ? BUDGET_COUNTRIES[code as keyof typeof BUDGET_COUNTRIES] : null;
}

export type Counts = Record<BudgetWindow, number>;

export interface SmsBudgetUsage {
  global: Counts;
  country: Record<BudgetCountry, Counts>;
  block: Map<string, Counts>;
}

const zero = (): Counts => ({ hour: 0, day: 0 });

/**
 * Every SMS handed to the worker's claim is counted once, in the minute it was claimed,
 * for the whole budget, its country and its number block (sms_budget_counts). A check
 * then reads at most a day of minutes for three scopes: its cost does not grow with the
 * SMS sent, where counting sms_messages rows did (decision 025). A claim whose send then
 * fails stays counted: the budgets err on the side of the operator's money.
 */
const GLOBAL_SCOPE = 'all';
const scopesOf = (telefono: string) => [GLOBAL_SCOPE, budgetCountry(telefono) ?? 'other', numberBlock(telefono)];
const minuteOf = (now: Date) => new Date(Math.floor(now.getTime() / 60_000) * 60_000);
/**
 * Serialises "count, then claim" across every worker process (a number only this lock
 * uses), so concurrent claims cannot all take the last place of a budget.
 */
const SMS_BUDGET_LOCK = 0x5b_d6e7;

/**
 * The values `claim_sms_within_budgets` (migration 20261125090000) checks and counts one
 * SMS to `telefono` with at `now`: its three scopes with their limits (none for a number
 * of another country), the window starts and the minute it is counted in.
 */
export function budgetCheckValues(telefono: string, now: Date, limits: SmsBudgetLimits) {
  const country = budgetCountry(telefono);
  const unlimited = { hour: null, day: null };
  const scopeLimits = [limits.global, country ? limits.country[country] : unlimited, limits.block];
  return {
    scopes: scopesOf(telefono),
    hourLimits: scopeLimits.map((limit) => limit.hour),
    dayLimits: scopeLimits.map((limit) => limit.day),
    hourStart: new Date(now.getTime() - WINDOW_MS.hour),
    dayStart: new Date(now.getTime() - WINDOW_MS.day),
    minute: minuteOf(now),
    lockKey: SMS_BUDGET_LOCK,
  };
}

/**
 * The budget `telefono` would exceed with one more SMS, from the usage of its scopes
 * (rows of scope, hour and day, as the claim returns them when the SMS does not fit).
 */
export const budgetExceededBy = (telefono: string, rows: { scope: string; hour: number; day: number }[], limits: SmsBudgetLimits) =>
  exceededBudget(telefono, usageOf(rows), limits);

/** Forgets the minutes no window reaches any more (the sweeper calls it). */
export const pruneSmsBudgetCounts = (db: Knex, now: Date) =>
  db('sms_budget_counts').where('minute', '<', new Date(now.getTime() - 2 * WINDOW_MS.day)).delete();

/**
 * SMS that count against the budgets at `now`: claimed in the last hour and day, in
 * total, per country and per number block (the sweeper, the admin).
 */
export async function smsBudgetUsage(db: Knex, now: Date): Promise<SmsBudgetUsage> {
  const hourStart = new Date(now.getTime() - WINDOW_MS.hour);
  const dayStart = new Date(now.getTime() - WINDOW_MS.day);
  const rows = await db('sms_budget_counts')
    .where('minute', '>', dayStart)
    .groupBy('scope')
    .select<{ scope: string; hour: number; day: number }[]>(
      'scope',
      db.raw('coalesce(sum(sms) FILTER (WHERE minute > ?), 0)::int AS hour', [hourStart]),
      db.raw('sum(sms)::int AS day'),
    );
  return usageOf(rows);
}

function usageOf(rows: { scope: string; hour: number; day: number }[]): SmsBudgetUsage {
  const usage: SmsBudgetUsage = {
    global: zero(),
    country: { IT: zero(), CH: zero() },
    block: new Map(),
  };
  for (const { scope, hour, day } of rows) {
    const counts = { hour, day };
    if (scope === GLOBAL_SCOPE) usage.global = counts;
    else if (scope === 'IT' || scope === 'CH') usage.country[scope] = counts;
    else if (/^\d+$/.test(scope)) usage.block.set(scope, counts);
  }
  return usage;
}

/** A budget: its scope (global, a country, a number block) and window. */
export interface Budget {
  scope: 'global' | 'country' | 'block';
  /** The country or the block; null for the global budget. */
  key: string | null;
  window: BudgetWindow;
}

export const budgetName = (budget: Budget) =>
  `${budget.scope}${budget.key ? ` ${budget.key}` : ''} per ${budget.window}`;

export interface BudgetCount {
  budget: Budget;
  count: number;
  limit: number;
}

/** The budgets an SMS to `telefono` counts against, with their limit and current count. */
export function budgetsOf(telefono: string, usage: SmsBudgetUsage, limits: SmsBudgetLimits): BudgetCount[] {
  const block = numberBlock(telefono);
  const country = budgetCountry(telefono);
  const blockCounts = usage.block.get(block) ?? zero();
  return BUDGET_WINDOWS.flatMap((window): BudgetCount[] => [
    { budget: { scope: 'global', key: null, window }, count: usage.global[window], limit: limits.global[window] },
    ...(country
      ? [
          {
            budget: { scope: 'country', key: country, window } satisfies Budget,
            count: usage.country[country][window],
            limit: limits.country[country][window],
          },
        ]
      : []),
    { budget: { scope: 'block', key: block, window }, count: blockCounts[window], limit: limits.block[window] },
  ]);
}

/** The first budget one more SMS to `telefono` would exceed, or null when it fits. */
export function exceededBudget(telefono: string, usage: SmsBudgetUsage, limits: SmsBudgetLimits): Budget | null {
  return budgetsOf(telefono, usage, limits).find(({ count, limit }) => count >= limit)?.budget ?? null;
}

/** Counts one more SMS to `telefono` in `usage` (planning several resumes at once). */
export function countOneMore(telefono: string, usage: SmsBudgetUsage) {
  const block = numberBlock(telefono);
  const country = budgetCountry(telefono);
  const blockCounts = usage.block.get(block) ?? zero();
  usage.block.set(block, blockCounts);
  for (const window of BUDGET_WINDOWS) {
    usage.global[window] += 1;
    if (country) usage.country[country][window] += 1;
    blockCounts[window] += 1;
  }
}
