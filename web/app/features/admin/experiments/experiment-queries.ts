import type { AdminExperimentList } from '@guida/shared/schemas/admin-experiments';
import { useAdminQuery } from '../admin-api';

const EXPERIMENTS_URL = '/api/admin/experiments';
export const keepVariantUrl = (experimentId: string, variantId: string) =>
  `${EXPERIMENTS_URL}/${encodeURIComponent(experimentId)}/keep/${encodeURIComponent(variantId)}`;
export const refreshesExperiments = (queryUrl: string) => queryUrl.startsWith(EXPERIMENTS_URL);

/** The hero experiments, their numbers refreshed like the other live figures. */
export function useExperiments() {
  return useAdminQuery<AdminExperimentList>(EXPERIMENTS_URL, { refetchInterval: 30_000 });
}
