import { keepPreviousData } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ConsentReport, FunnelReport, dateRangeQuerySchema, funnelQuerySchema } from '@guida/shared/schemas/admin';
import { FRESH_MS, adminUrl, useAdminQuery } from '../admin-api';

/** A report's filters as the URL carries them: text, empty when unset. */
type ReportFilterValues<Schema extends z.ZodObject> = Partial<Record<keyof Schema['shape'], string>>;

/** The report keeps showing the previous filters' answer while the new one loads. */
const REPORT_OPTIONS = { staleTime: FRESH_MS, placeholderData: keepPreviousData };

export function useFunnelReport(filters: ReportFilterValues<typeof funnelQuerySchema>) {
  return useAdminQuery<FunnelReport>(adminUrl('/api/admin/funnel', filters), REPORT_OPTIONS);
}

export function useConsentReport(range: ReportFilterValues<typeof dateRangeQuerySchema>) {
  return useAdminQuery<ConsentReport>(adminUrl('/api/admin/consents', range), REPORT_OPTIONS);
}
