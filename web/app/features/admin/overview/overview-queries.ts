import { keepPreviousData } from '@tanstack/react-query';
import type { Overview } from '@guida/shared/schemas/admin';
import { adminUrl, useAdminQuery } from '../admin-api';

/** The overview runs a few aggregate queries: polled less often than the queues. */
const OVERVIEW_POLL_MS = 15_000;

/** The first screen's figures (decision 042), polled while it is shown and the browser tab visible. */
export function useOverview(days: string) {
  return useAdminQuery<Overview>(adminUrl('/api/admin/overview', { days }), {
    refetchInterval: OVERVIEW_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
