import { useQuery } from '@tanstack/react-query';
import type { LiveStats } from '@guida/shared/schemas/analytics';

/** The real figures behind the widgets, refreshed every 30 s while the page is open. */
export function useLiveStats(path: string) {
  return useQuery<LiveStats>({
    queryKey: [`/api/live-stats?path=${encodeURIComponent(path)}`],
    refetchInterval: 30_000,
    staleTime: 25_000,
  });
}
