import type { SiteSettings } from '@guida/shared/schemas/site-settings';
import { useSharedJson } from '../../lib/use-shared-json';

/** Runtime settings of the public site (GA id, real offer deadline, free places). */
export function useSiteSettings() {
  return useSharedJson<SiteSettings>('/api/site-settings');
}
