import { useQuery } from '@tanstack/react-query';
import type { SiteSettings } from '@guida/shared/schemas/site-settings';
import type { SmsCopy } from '../../content/sms-copy';

/** Runtime settings of the public site (GA id, real offer deadline, free places), read once per page life. */
export function useSiteSettings() {
  return useQuery<SiteSettings>({ queryKey: ['/api/site-settings'] });
}

/**
 * The SMS copy as the running API's settings give it (the worker's settings), once read;
 * until then the copy the page was built with.
 */
export function useSmsCopy(built: SmsCopy): SmsCopy {
  const { data } = useSiteSettings();
  return data ? { sender: data.smsSender, linkDays: data.guideLinkDays, heldEmailMinutes: data.smsHeldEmailAfterMinutes } : built;
}
