import { keepPreviousData, useMutation } from '@tanstack/react-query';
import type { AdSpendImport, AdSpendList } from '@guida/shared/schemas/admin-costs';
import { adminPost, adminUrl, FRESH_MS, useAdminQuery } from '../admin-api';

const AD_SPEND_URL = '/api/admin/ad-spend';
const IMPORT_URL = '/api/admin/ad-spend/import';

/** The spend imported for the last `days` days (decision 060). */
export function useAdSpend(days: string) {
  return useAdminQuery<AdSpendList>(adminUrl(AD_SPEND_URL, { days }), { staleTime: FRESH_MS, placeholderData: keepPreviousData });
}

/**
 * The import of one CSV file, sent as it is (`text/csv`); the API answers the counts, or a
 * 400 naming the bad lines. The spend list and the overview's costs are fetched again.
 */
export function useImportAdSpend() {
  return useMutation({
    mutationFn: (file: File, { client }) => adminPost<AdSpendImport>(client, IMPORT_URL, new Blob([file], { type: 'text/csv' })),
    onSuccess: async (_answer, _file, _result, { client }) => {
      await client.invalidateQueries({
        predicate: ({ queryKey }) => String(queryKey[0]).startsWith(AD_SPEND_URL) || String(queryKey[0]).startsWith('/api/admin/overview'),
      });
    },
  });
}
