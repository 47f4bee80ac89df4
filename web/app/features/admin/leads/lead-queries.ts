import { keepPreviousData } from '@tanstack/react-query';
import type { LeadDetail, LeadFilters, LeadList, LeadOrder } from '@guida/shared/schemas/admin';
import { FRESH_MS, adminUrl, useAdminQuery } from '../admin-api';

const LEADS_URL = '/api/admin/leads';

/** Filter values as the URL carries them: text, empty when unset. */
type LeadFilterValues = Partial<Record<keyof LeadFilters, string>>;

export const leadsExportUrl = (filters: LeadFilterValues) => adminUrl(`${LEADS_URL}/export.csv`, filters);
export const leadUrl = (id: number) => `${LEADS_URL}/${id}`;
/** The answers about leads (the list, a lead), which an action on a lead changes. */
export const refreshesLeads = (queryUrl: string) => queryUrl.startsWith(LEADS_URL);

export function useLeadList(filters: LeadFilterValues, page: number, pageSize: number, order: LeadOrder) {
  return useAdminQuery<LeadList>(adminUrl(LEADS_URL, { ...filters, page, pageSize, order: order === 'desc' ? undefined : order }), {
    staleTime: FRESH_MS,
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useLeadDetail(id: number) {
  return useAdminQuery<LeadDetail>(leadUrl(id), { staleTime: FRESH_MS });
}
