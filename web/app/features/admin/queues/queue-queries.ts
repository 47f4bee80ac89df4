import type { FailedJobs, QueueStats } from '@guida/shared/schemas/admin';
import { POLL_MS, useAdminQuery } from '../admin-api';

const QUEUES_URL = '/api/admin/queues';
const queueUrl = (name: string) => `${QUEUES_URL}/${encodeURIComponent(name)}`;
export const retryJobUrl = (name: string, jobId: string) => `${queueUrl(name)}/jobs/${encodeURIComponent(jobId)}/retry`;
/** A retried job leaves the failed ones and changes the counts. */
export const refreshesQueues = (queryUrl: string) => queryUrl.startsWith(QUEUES_URL);

/** Polled every 5 s while the browser tab is visible (React Query pauses hidden tabs). */
export function useQueueStats() {
  return useAdminQuery<QueueStats>(QUEUES_URL, { refetchInterval: POLL_MS });
}

export function useFailedJobs(name: string) {
  return useAdminQuery<FailedJobs>(`${queueUrl(name)}/failed`, { refetchInterval: POLL_MS });
}
