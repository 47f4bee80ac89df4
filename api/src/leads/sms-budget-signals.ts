import { budgetAddressDigest } from '@guida/shared/deliveries/sms-budget';
import { withTimeout } from '@guida/shared/server/with-timeout';
import type { ApiDeps } from '../dependencies';
import { lastSeenOnline } from '../analytics';
import { clientKey } from '../http/client-ip';
import type { NewLead } from './leads.repo';

/** A local Redis answers in well under a millisecond; one that hangs must not hold the lead. */
const PRESENCE_TIMEOUT_MS = 300;

/**
 * What the SMS budgets count a lead's SMS by besides its number (decision 052): the
 * keyed digest of its client's address (an IPv4 address, an IPv6 /64), and whether the
 * lead is trusted: the API saw an analytics request from that client (a page of the site
 * opened) within the last minutes, before the form. A trusted SMS may use the share of
 * the global, country and block budgets kept for such leads, and is resumed first. Redis
 * unreachable or slow: untrusted (the lead is stored and answered as usual).
 */
export function smsBudgetSignals(deps: Pick<ApiDeps, 'redis' | 'config'>) {
  const digest = budgetAddressDigest(deps.config.SESSION_SECRET);
  return async (ip: string | undefined): Promise<NewLead['smsBudget']> => {
    const key = clientKey(ip);
    if (key === 'unknown') return { trusted: false, address: null };
    const seenAt = await withTimeout(lastSeenOnline(deps.redis, deps.config.REDIS_KEY_PREFIX, key), PRESENCE_TIMEOUT_MS, 'Redis').catch(
      () => null,
    );
    return { trusted: seenAt !== null, address: digest(key) };
  };
}

export type SmsBudgetSignals = ReturnType<typeof smsBudgetSignals>;
