import { useQuery } from '@tanstack/react-query';
import type { SiteSettings } from '@guida/shared/schemas/site-settings';

/** Runtime settings of the public site (GA id, real offer deadline, free places), read once per page life. */
export function useSiteSettings() {
  return useQuery<SiteSettings>({ queryKey: ['/api/site-settings'] });
}
