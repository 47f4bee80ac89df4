import type { AlertIncidents } from '@guida/shared/alerts';
import type { AdminConfiguration } from '@guida/shared/schemas/admin';
import { POLL_MS, useAdminQuery } from '../admin-api';

/** The open and recently resolved alerts, polled like the queues (the banner on every tab). */
export function useAlertIncidents() {
  return useAdminQuery<AlertIncidents>('/api/admin/alerts', { refetchInterval: POLL_MS });
}

/** Settings the operator should know about; they change only when the API restarts. */
export function useAdminConfiguration() {
  return useAdminQuery<AdminConfiguration>('/api/admin/configuration', { staleTime: 5 * 60_000 });
}
