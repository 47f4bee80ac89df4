import {
  keepPreviousData,
  useMutation,
  useQuery,
  type QueryClient,
  type QueryFunctionContext,
} from '@tanstack/react-query';
import type {
  AdminConfiguration,
  AdminSession,
  ConsentReport,
  DataRequestList,
  FailedJobs,
  FunnelReport,
  LeadDetail,
  LeadFilters,
  LeadList,
  LeadOrder,
  Overview,
  QueueStats,
  SmsBudgetOverview,
} from '@guida/shared/schemas/admin';
import type { AlertIncidents } from '@guida/shared/alerts';
import type { ConsentHistory } from '@guida/shared/schemas/gdpr';
import { toast } from '../../components/ui/toast-store';
import { ApiError, getJson } from '../../lib/api-client';

/**
 * The admin API client. Query keys are the request URLs (with their query strings), so
 * the admin query client's conventions hold (admin-queries.tsx) and a refresh can target URLs by prefix.
 */

export const ADMIN_SESSION_URL = '/api/admin/session';
const ADMIN_API = '/api/admin/';

/** Filter values as the URL carries them: text, empty when unset. */
type LeadFilterValues = Partial<Record<keyof LeadFilters, string>>;
type FunnelFilterValues = Partial<Record<'from' | 'to' | 'landingPath' | 'utmSource', string>>;
type DateRangeValues = Partial<Record<'from' | 'to', string>>;

/** `path?query` with only the filled-in parameters. */
function adminUrl(path: string, params: Record<string, string | number | undefined> = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

const leadsUrl = (filters: LeadFilterValues, page: number, pageSize: number, order: LeadOrder) =>
  adminUrl('/api/admin/leads', { ...filters, page, pageSize, order: order === 'desc' ? undefined : order });
export const leadsExportUrl = (filters: LeadFilterValues) => adminUrl('/api/admin/leads/export.csv', filters);
export const leadUrl = (id: number) => `/api/admin/leads/${id}`;
export const QUEUES_URL = '/api/admin/queues';
const CONFIGURATION_URL = '/api/admin/configuration';
export const SMS_BUDGET_URL = '/api/admin/sms-budget';
export const SMS_BUDGET_RELEASE_URL = '/api/admin/sms-budget/release';
const ALERTS_URL = '/api/admin/alerts';
const failedJobsUrl = (name: string) => `${QUEUES_URL}/${encodeURIComponent(name)}/failed`;
export const retryJobUrl = (name: string, jobId: string) =>
  `${QUEUES_URL}/${encodeURIComponent(name)}/jobs/${encodeURIComponent(jobId)}/retry`;

/** The API's Italian message for a failed request, or a generic one. */
export function errorMessage(error: unknown) {
  if (error instanceof ApiError) return error.payload?.message ?? `Errore del server (${error.status}).`;
  return 'Impossibile contattare il server. Controlla la connessione e riprova.';
}

export const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * A 401 or 403 on any admin request means the session ended or the account lost its admin
 * rights: re-reading the session lets the page guard react (back to login, or "denied").
 */
function recheckSessionAfter(error: unknown, client: QueryClient) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    void client.invalidateQueries({ queryKey: [ADMIN_SESSION_URL] });
  }
}

/** The query function of the admin's GETs: the query key is the URL. */
export async function adminGet<T>({ queryKey, client }: QueryFunctionContext): Promise<T> {
  try {
    return await getJson<T>(String(queryKey[0]));
  } catch (error) {
    recheckSessionAfter(error, client);
    throw error;
  }
}

/** The signed-in admin, null when nobody is signed in; a 403 error when not an admin. */
export function useAdminSession() {
  return useQuery<AdminSession | null>({
    queryKey: [ADMIN_SESSION_URL],
    queryFn: async () => {
      try {
        return await getJson<AdminSession>(ADMIN_SESSION_URL);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    // 'always' because the data never goes stale: a logout in another tab shows on return.
    refetchOnWindowFocus: 'always',
  });
}

/**
 * A state-changing admin request, with the CSRF token of the cached session. Resolves to
 * the JSON answer, or null when the answer has no body (204).
 */
export async function adminPost<T = { message: string }>(client: QueryClient, url: string, body?: unknown): Promise<T | null> {
  const session = client.getQueryData<AdminSession | null>([ADMIN_SESSION_URL]);
  const headers: Record<string, string> = {};
  if (session) headers['X-CSRF-Token'] = session.csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) {
    const error = new ApiError(response.status, (await response.text()) || response.statusText);
    recheckSessionAfter(error, client);
    throw error;
  }
  const text = await response.text();
  return text ? (JSON.parse(text) as T) : null;
}

/**
 * A POST to the URL given to `mutate`: its message in a toast, then the queries whose URL
 * `refresh` accepts are fetched again.
 */
export function useAdminAction(refresh: (queryUrl: string) => boolean) {
  return useMutation({
    mutationFn: (url: string, { client }) => adminPost(client, url),
    onSuccess: async (answer, _url, _result, { client }) => {
      toast({ title: answer?.message ?? 'Operazione eseguita.' });
      await client.invalidateQueries({ predicate: ({ queryKey }) => refresh(String(queryKey[0])) });
    },
    onError: (error) => toast({ title: 'Operazione non riuscita', description: errorMessage(error), variant: 'destructive' }),
  });
}

/**
 * Signs out and forgets every admin answer; the page guard, seeing no session, then goes
 * to the login page.
 */
export function useLogout() {
  return useMutation({
    mutationFn: (_: void, { client }) => adminPost(client, '/api/admin/logout'),
    onSuccess: (_answer, _variables, _result, { client }) => {
      client.setQueryData([ADMIN_SESSION_URL], null);
      client.removeQueries({
        predicate: ({ queryKey }) => String(queryKey[0]).startsWith(ADMIN_API) && queryKey[0] !== ADMIN_SESSION_URL,
      });
    },
    onError: (error) => toast({ title: 'Uscita non riuscita', description: errorMessage(error), variant: 'destructive' }),
  });
}

// Admin figures change all the time: when a tab is shown again after this long, refetch.
const FRESH_MS = 30_000;
const POLL_MS = 5_000;
/** The overview runs a few aggregate queries: polled less often than the queues. */
const OVERVIEW_POLL_MS = 15_000;

export function useLeadList(filters: LeadFilterValues, page: number, pageSize: number, order: LeadOrder) {
  return useQuery<LeadList>({
    queryKey: [leadsUrl(filters, page, pageSize, order)],
    queryFn: adminGet,
    staleTime: FRESH_MS,
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useLeadDetail(id: number) {
  return useQuery<LeadDetail>({ queryKey: [leadUrl(id)], queryFn: adminGet, staleTime: FRESH_MS });
}

/** Polled every 5 s while the browser tab is visible (react-query pauses hidden tabs). */
export function useQueueStats() {
  return useQuery<QueueStats>({ queryKey: [QUEUES_URL], queryFn: adminGet, refetchInterval: POLL_MS });
}

/** Settings the operator should know about; they change only when the API restarts. */
export function useAdminConfiguration() {
  return useQuery<AdminConfiguration>({ queryKey: [CONFIGURATION_URL], queryFn: adminGet, staleTime: 5 * 60_000 });
}

/** The SMS budgets and the held SMS, polled like the queues (the alert on every tab). */
export function useSmsBudget() {
  return useQuery<SmsBudgetOverview>({ queryKey: [SMS_BUDGET_URL], queryFn: adminGet, refetchInterval: POLL_MS });
}

/** The open and recently resolved alerts, polled like the queues (the banner on every tab). */
export function useAlertIncidents() {
  return useQuery<AlertIncidents>({ queryKey: [ALERTS_URL], queryFn: adminGet, refetchInterval: POLL_MS });
}

/** The first screen's figures (decision 042), polled while it is shown and the browser tab visible. */
export function useOverview(days: string) {
  return useQuery<Overview>({
    queryKey: [adminUrl('/api/admin/overview', { days })],
    queryFn: adminGet,
    refetchInterval: OVERVIEW_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

export function useFailedJobs(name: string) {
  return useQuery<FailedJobs>({ queryKey: [failedJobsUrl(name)], queryFn: adminGet, refetchInterval: POLL_MS });
}

export function useFunnelReport(filters: FunnelFilterValues) {
  return useQuery<FunnelReport>({
    queryKey: [adminUrl('/api/admin/funnel', filters)],
    queryFn: adminGet,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useConsentReport(range: DateRangeValues) {
  return useQuery<ConsentReport>({
    queryKey: [adminUrl('/api/admin/consents', range)],
    queryFn: adminGet,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export const DATA_REQUESTS_URL = '/api/admin/data-requests';
export const processDataRequestUrl = (id: number) => `${DATA_REQUESTS_URL}/${id}/process`;
export const rectifyLeadUrl = (id: number) => `/api/admin/leads/${id}/rectify`;

export function useDataRequests(status = '') {
  return useQuery<DataRequestList>({
    queryKey: [adminUrl(DATA_REQUESTS_URL, { status })],
    queryFn: adminGet,
    staleTime: FRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/** A person's consents and requests; fetched only once an address is asked for. */
export function useConsentHistory(email: string) {
  return useQuery<ConsentHistory>({
    queryKey: [adminUrl('/api/admin/consent-history', { email })],
    queryFn: adminGet,
    enabled: email !== '',
    staleTime: FRESH_MS,
  });
}

/**
 * A POST with a JSON body (like useAdminAction, which posts none): its message in a
 * toast, then the queries whose URL `refresh` accepts are fetched again.
 */
export function useAdminSubmit(refresh: (queryUrl: string) => boolean) {
  return useMutation({
    mutationFn: ({ url, body }: { url: string; body: unknown }, { client }) => adminPost(client, url, body),
    onSuccess: async (answer, _variables, _result, { client }) => {
      toast({ title: answer?.message ?? 'Operazione eseguita.' });
      await client.invalidateQueries({ predicate: ({ queryKey }) => refresh(String(queryKey[0])) });
    },
    onError: (error) => toast({ title: 'Operazione non riuscita', description: errorMessage(error), variant: 'destructive' }),
  });
}
