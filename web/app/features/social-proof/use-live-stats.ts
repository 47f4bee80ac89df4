import { useQuery } from '@tanstack/react-query';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { useAfterHydrationIdle } from '../../lib/after-hydration';

/** How often the figures are read again while the page is visible (React Query pauses hidden tabs). */
const REFRESH_MS = 30_000;

/**
 * The real figures behind the widgets of a page: one request however many widgets show them,
 * from the first idle moment after hydration (as the site settings, for the same reason).
 */
export function useLiveStats(path: string) {
  return useQuery<LiveStats>({
    queryKey: [`/api/live-stats?path=${encodeURIComponent(path)}`],
    refetchInterval: REFRESH_MS,
    enabled: useAfterHydrationIdle(),
  });
}
