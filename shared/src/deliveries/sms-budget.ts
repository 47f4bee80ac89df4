import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The SMS budgets (decision 025): how many SMS were handed over in the rolling hour and
 * day, in total, per country and per number block, against the configured limits. The
 * counts live in PostgreSQL beside the deliveries, written in the claim's transaction:
 * after an outage of anything else, they are still right.
 *
 * Decision 052 adds the client: per network (IPv4 /24, IPv6 /48) and per address (IPv4
 * address, IPv6 /64), and a share of the global, country and block budgets that only
 * trusted SMS (a visit seen before the form) may use: the others count in an untrusted
 * scope of their own, whose limit is the rest.
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
  network: WindowLimits;
  address: WindowLimits;
  /** Percent of the global, country and block budgets only trusted SMS may use. */
  trustedSharePercent: number;
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
  SMS_BUDGET_NETWORK_PER_HOUR: number;
  SMS_BUDGET_NETWORK_PER_DAY: number;
  SMS_BUDGET_ADDRESS_PER_HOUR: number;
  SMS_BUDGET_ADDRESS_PER_DAY: number;
  SMS_BUDGET_TRUSTED_SHARE_PERCENT: number;
}): SmsBudgetLimits {
  return {
    global: { hour: config.SMS_BUDGET_GLOBAL_PER_HOUR, day: config.SMS_BUDGET_GLOBAL_PER_DAY },
    country: {
      IT: { hour: config.SMS_BUDGET_IT_PER_HOUR, day: config.SMS_BUDGET_IT_PER_DAY },
      CH: { hour: config.SMS_BUDGET_CH_PER_HOUR, day: config.SMS_BUDGET_CH_PER_DAY },
    },
    block: { hour: config.SMS_BUDGET_BLOCK_PER_HOUR, day: config.SMS_BUDGET_BLOCK_PER_DAY },
    network: { hour: config.SMS_BUDGET_NETWORK_PER_HOUR, day: config.SMS_BUDGET_NETWORK_PER_DAY },
    address: { hour: config.SMS_BUDGET_ADDRESS_PER_HOUR, day: config.SMS_BUDGET_ADDRESS_PER_DAY },
    trustedSharePercent: config.SMS_BUDGET_TRUSTED_SHARE_PERCENT,
  };
}

/** What untrusted SMS may use of a global, country or block limit: the part not reserved. */
export const untrustedLimit = (limit: number, limits: Pick<SmsBudgetLimits, 'trustedSharePercent'>) =>
  Math.floor((limit * (100 - limits.trustedSharePercent)) / 100);

/**
 * What an SMS is counted by, besides its number: the lead's client and whether the lead
 * showed a signal an attacker pays for (decision 052).
 */
export interface BudgetSubject {
  telefono: string;
  /** The client's network as the lead stores it (`ip_address`: IPv4 /24, IPv6 /48); null when unknown. */
  network: string | null;
  /** The keyed digest of the client's address (budgetAddressDigest); null when unknown. */
  address: string | null;
  /** A visit seen before the form: may use the reserved share. */
  trusted: boolean;
}

/**
 * The digest an address budget is counted under: an HMAC of the client key (an IPv4
 * address, an IPv6 /64) under a key derived from `secret` for this purpose only, 64 bits
 * in hex. The address itself is never stored (the lead keeps its network only).
 */
export function budgetAddressDigest(secret: string) {
  const key = createHmac('sha256', secret).update('sms-budget-address').digest();
  return (clientKey: string) => createHmac('sha256', key).update(clientKey).digest('hex').slice(0, 16);
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

/** The counts of one kind of scope: the whole budget, each country, and scopes by key. */
interface ScopeUsage {
  global: Counts;
  country: Record<BudgetCountry, Counts>;
  block: Map<string, Counts>;
}

export interface SmsBudgetUsage extends ScopeUsage {
  network: Map<string, Counts>;
  address: Map<string, Counts>;
  /** The untrusted SMS among them (decision 052), counted again in scopes of their own. */
  untrusted: ScopeUsage;
}

const zero = (): Counts => ({ hour: 0, day: 0 });
const emptyScopes = (): ScopeUsage => ({ global: zero(), country: { IT: zero(), CH: zero() }, block: new Map() });

/**
 * Every SMS handed to the worker's claim is counted once, in the minute it was claimed,
 * for the whole budget, its country, its number block, its client's network and address,
 * and, when untrusted, in the untrusted scopes of the whole budget, its country and its
 * block (sms_budget_counts). A check then reads at most a day of minutes for those
 * scopes: its cost does not grow with the SMS sent, where counting sms_messages rows did
 * (decision 025). A claim whose send then fails stays counted: the budgets err on the
 * side of the operator's money.
 */
const GLOBAL_SCOPE = 'all';
const NETWORK_PREFIX = 'net:';
const ADDRESS_PREFIX = 'addr:';
const UNTRUSTED_PREFIX = 'untrusted:';

/** The scopes of one SMS, in the order budgetCheckValues gives their limits. */
function scopesOf(subject: BudgetSubject, limits: SmsBudgetLimits) {
  const country = budgetCountry(subject.telefono);
  const block = numberBlock(subject.telefono);
  const unlimited = { hour: null, day: null };
  const share = (limit: WindowLimits) => untrustedLimits(limit, limits);
  const countryLimits = country ? limits.country[country] : null;
  const scopes: { scope: string; limit: WindowLimits | typeof unlimited }[] = [
    { scope: GLOBAL_SCOPE, limit: limits.global },
    { scope: country ?? 'other', limit: countryLimits ?? unlimited },
    { scope: block, limit: limits.block },
  ];
  if (subject.network) scopes.push({ scope: `${NETWORK_PREFIX}${subject.network}`, limit: limits.network });
  if (subject.address) scopes.push({ scope: `${ADDRESS_PREFIX}${subject.address}`, limit: limits.address });
  if (!subject.trusted) {
    scopes.push({ scope: `${UNTRUSTED_PREFIX}${GLOBAL_SCOPE}`, limit: share(limits.global) });
    if (countryLimits) scopes.push({ scope: `${UNTRUSTED_PREFIX}${country}`, limit: share(countryLimits) });
    scopes.push({ scope: `${UNTRUSTED_PREFIX}${block}`, limit: share(limits.block) });
  }
  return scopes;
}

const minuteOf = (now: Date) => new Date(Math.floor(now.getTime() / 60_000) * 60_000);
/**
 * Serialises "count, then claim" across every worker process (a number only this lock
 * uses), so concurrent claims cannot all take the last place of a budget.
 */
const SMS_BUDGET_LOCK = 0x5b_d6e7;

/**
 * The values `claim_sms_within_budgets` (migration 20261125090000) checks and counts one
 * SMS with at `now`: its scopes with their limits (none for a number of another
 * country), the window starts and the minute it is counted in.
 */
export function budgetCheckValues(subject: BudgetSubject, now: Date, limits: SmsBudgetLimits) {
  const scopes = scopesOf(subject, limits);
  return {
    scopes: scopes.map(({ scope }) => scope),
    hourLimits: scopes.map(({ limit }) => limit.hour),
    dayLimits: scopes.map(({ limit }) => limit.day),
    hourStart: new Date(now.getTime() - WINDOW_MS.hour),
    dayStart: new Date(now.getTime() - WINDOW_MS.day),
    minute: minuteOf(now),
    lockKey: SMS_BUDGET_LOCK,
  };
}

/**
 * The budget `subject` would exceed with one more SMS, from the usage of its scopes
 * (rows of scope, hour and day, as the claim returns them when the SMS does not fit).
 */
export const budgetExceededBy = (subject: BudgetSubject, rows: { scope: string; hour: number; day: number }[], limits: SmsBudgetLimits) =>
  exceededBudget(subject, usageOf(rows), limits);

/** Forgets the minutes no window reaches any more (the sweeper calls it). */
export const pruneSmsBudgetCounts = (db: Knex, now: Date) =>
  db('sms_budget_counts').where('minute', '<', new Date(now.getTime() - 2 * WINDOW_MS.day)).delete();

/** How long an SMS keeps its client's address digest: as long as a window can count it. */
export const BUDGET_ADDRESS_KEPT_MS = 2 * WINDOW_MS.day;

/**
 * SMS that count against the budgets at `now`: claimed in the last hour and day, in
 * every scope (the sweeper, the admin).
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

/** Puts one scope's counts where they belong; false for a scope of no kind we count. */
function addScope(usage: ScopeUsage, scope: string, counts: Counts) {
  if (scope === GLOBAL_SCOPE) usage.global = counts;
  else if (scope === 'IT' || scope === 'CH') usage.country[scope] = counts;
  else if (/^\d+$/.test(scope)) usage.block.set(scope, counts);
  else return false;
  return true;
}

function usageOf(rows: { scope: string; hour: number; day: number }[]): SmsBudgetUsage {
  const usage: SmsBudgetUsage = { ...emptyScopes(), network: new Map(), address: new Map(), untrusted: emptyScopes() };
  for (const { scope, hour, day } of rows) {
    const counts = { hour, day };
    if (addScope(usage, scope, counts)) continue;
    if (scope.startsWith(NETWORK_PREFIX)) usage.network.set(scope.slice(NETWORK_PREFIX.length), counts);
    else if (scope.startsWith(ADDRESS_PREFIX)) usage.address.set(scope.slice(ADDRESS_PREFIX.length), counts);
    else if (scope.startsWith(UNTRUSTED_PREFIX)) addScope(usage.untrusted, scope.slice(UNTRUSTED_PREFIX.length), counts);
  }
  return usage;
}

/**
 * A budget: its scope (global, a country, a number block, a client network or address)
 * and window; `untrusted` for the part of a global, country or block budget untrusted
 * SMS may use.
 */
export interface Budget {
  scope: 'global' | 'country' | 'block' | 'network' | 'address';
  /** The country, the block, the network or the address digest; null for the global budget. */
  key: string | null;
  window: BudgetWindow;
  untrusted: boolean;
}

export const budgetName = (budget: Budget) =>
  `${budget.untrusted ? 'untrusted share of ' : ''}${budget.scope}${budget.key ? ` ${budget.key}` : ''} per ${budget.window}`;

export interface BudgetCount {
  budget: Budget;
  count: number;
  limit: number;
}

/** The budgets an SMS of `subject` counts against, with their limit and current count. */
export function budgetsOf(subject: BudgetSubject, usage: SmsBudgetUsage, limits: SmsBudgetLimits): BudgetCount[] {
  const block = numberBlock(subject.telefono);
  const country = budgetCountry(subject.telefono);
  const entry = (scope: Budget['scope'], key: string | null, window: BudgetWindow, untrusted: boolean, count: number, limit: number) => ({
    budget: { scope, key, window, untrusted },
    count,
    limit: untrusted ? untrustedLimit(limit, limits) : limit,
  });
  return BUDGET_WINDOWS.flatMap((window): BudgetCount[] => {
    const ofKind = (counts: ScopeUsage, untrusted: boolean): BudgetCount[] => [
      entry('global', null, window, untrusted, counts.global[window], limits.global[window]),
      ...(country ? [entry('country', country, window, untrusted, counts.country[country][window], limits.country[country][window])] : []),
      entry('block', block, window, untrusted, (counts.block.get(block) ?? zero())[window], limits.block[window]),
    ];
    return [
      ...ofKind(usage, false),
      ...(subject.network
        ? [entry('network', subject.network, window, false, (usage.network.get(subject.network) ?? zero())[window], limits.network[window])]
        : []),
      ...(subject.address
        ? [entry('address', subject.address, window, false, (usage.address.get(subject.address) ?? zero())[window], limits.address[window])]
        : []),
      ...(subject.trusted ? [] : ofKind(usage.untrusted, true)),
    ];
  });
}

/** The first budget one more SMS of `subject` would exceed, or null when it fits. */
export function exceededBudget(subject: BudgetSubject, usage: SmsBudgetUsage, limits: SmsBudgetLimits): Budget | null {
  return budgetsOf(subject, usage, limits).find(({ count, limit }) => count >= limit)?.budget ?? null;
}

/** Counts one more SMS of `subject` in `usage` (planning several resumes at once). */
export function countOneMore(subject: BudgetSubject, usage: SmsBudgetUsage) {
  const block = numberBlock(subject.telefono);
  const country = budgetCountry(subject.telefono);
  const add = (map: Map<string, Counts>, key: string) => {
    const counts = map.get(key) ?? zero();
    map.set(key, counts);
    for (const window of BUDGET_WINDOWS) counts[window] += 1;
  };
  const addTo = (counts: ScopeUsage) => {
    for (const window of BUDGET_WINDOWS) {
      counts.global[window] += 1;
      if (country) counts.country[country][window] += 1;
    }
    add(counts.block, block);
  };
  addTo(usage);
  if (subject.network) add(usage.network, subject.network);
  if (subject.address) add(usage.address, subject.address);
  if (!subject.trusted) addTo(usage.untrusted);
}

/** Whether a scope's counts reach a limit in either window. */
export const isFull = (counts: Counts, limit: WindowLimits) => BUDGET_WINDOWS.some((window) => counts[window] >= limit[window]);

/** The keys of `counts` that reach `limit` in either window. */
export const fullKeys = (counts: Map<string, Counts>, limit: WindowLimits) =>
  [...counts.entries()].filter(([, value]) => isFull(value, limit)).map(([key]) => key);

/** The untrusted share of a global, country or block limit, per window. */
export const untrustedLimits = (limit: WindowLimits, limits: SmsBudgetLimits): WindowLimits => ({
  hour: untrustedLimit(limit.hour, limits),
  day: untrustedLimit(limit.day, limits),
});
