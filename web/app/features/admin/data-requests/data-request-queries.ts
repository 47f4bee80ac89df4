import { keepPreviousData } from '@tanstack/react-query';
import type { DataRequestList } from '@guida/shared/schemas/admin';
import type { ConsentHistory } from '@guida/shared/schemas/gdpr';
import { FRESH_MS, adminUrl, useAdminQuery } from '../admin-api';
import { leadUrl } from '../leads/lead-queries';

const DATA_REQUESTS_URL = '/api/admin/data-requests';
export const processDataRequestUrl = (id: number) => `${DATA_REQUESTS_URL}/${id}/process`;
export const rectifyLeadUrl = (id: number) => `${leadUrl(id)}/rectify`;
/** The answers about data requests, which processing one (or correcting its lead) changes. */
export const refreshesRequests = (queryUrl: string) => queryUrl.startsWith(DATA_REQUESTS_URL);

export function useDataRequests(status = '') {
  return useAdminQuery<DataRequestList>(adminUrl(DATA_REQUESTS_URL, { status }), {
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/** A person's consents and requests; fetched only once an address is asked for. */
export function useConsentHistory(email: string) {
  return useAdminQuery<ConsentHistory>(adminUrl('/api/admin/consent-history', { email }), {
    enabled: email !== '',
    staleTime: FRESH_MS,
  });
}
