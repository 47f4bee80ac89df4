import type { LiveStats } from '@guida/shared/schemas/analytics';
import { useSharedJson } from '../../lib/use-shared-json';

/** The real figures behind the widgets, refreshed every 30 s while the page is open. */
export function useLiveStats(path: string) {
  return useSharedJson<LiveStats>(`/api/live-stats?path=${encodeURIComponent(path)}`, 30_000);
}
