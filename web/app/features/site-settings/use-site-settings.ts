import { useQuery } from '@tanstack/react-query';
import type { SiteSettings } from '@guida/shared/schemas/site-settings';
import type { SmsCopy } from '../../content/sms-copy';
import { useAfterHydrationIdle } from '../../lib/after-hydration';

/**
 * Runtime settings of the public site (GA id, real offer deadline, free places), read once per
 * page life, from the first idle moment after hydration: an answer that came while parts of
 * the page were still to hydrate made React hydrate them at once, in one long task (a store's
 * update is urgent).
 */
export function useSiteSettings() {
  return useQuery<SiteSettings>({ queryKey: ['/api/site-settings'], enabled: useAfterHydrationIdle() });
}

/**
 * The SMS copy as the running API's settings give it (the worker's settings), once read;
 * until then the copy the page was built with.
 */
export function useSmsCopy(built: SmsCopy): SmsCopy {
  const { data } = useSiteSettings();
  return data ? { sender: data.smsSender, linkDays: data.guideLinkDays, heldEmailMinutes: data.smsHeldEmailAfterMinutes } : built;
}
