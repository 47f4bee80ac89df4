import { useMutation, useQuery, type QueryClient, type QueryFunctionContext, type UseQueryOptions } from '@tanstack/react-query';
import type { AdminSession } from '@guida/shared/schemas/admin';
import { toast } from '../../components/ui/toast-store';
import { ApiError, getJson } from '../../lib/api-client';
import { activityHeaders } from './user-activity';

/**
 * What every admin tab uses to talk to the API; each tab's own requests live in its folder.
 * Query keys are the request URLs (with their query strings), the root query client's
 * convention (lib/query-client.ts), so an action can refresh the answers it changed by URL.
 */

export const ADMIN_API = '/api/admin/';
export const ADMIN_SESSION_URL = '/api/admin/session';
/** Set when a signed-in session ends by itself (idle, expired, signed out elsewhere): the login page says so. */
export const SESSION_ENDED_KEY = ['admin-session-ended'] as const;

// Admin figures change all the time: when a tab is shown again after this long, refetch.
export const FRESH_MS = 30_000;
/** The live figures (queues, alerts, SMS budget) are polled this often while the browser tab is visible. */
export const POLL_MS = 5_000;

/** `path?query` with only the filled-in parameters. */
export function adminUrl(path: string, params: Record<string, string | number | undefined> = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

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
    if (error.status === 401) markSessionEnded(client);
    void client.invalidateQueries({ queryKey: [ADMIN_SESSION_URL] });
  }
}

/** A 401 while a session was cached: it ended by itself, which the login page will tell. */
export function markSessionEnded(client: QueryClient) {
  if (client.getQueryData([ADMIN_SESSION_URL])) client.setQueryData(SESSION_ENDED_KEY, true);
}

/** An admin GET; marked as background unless the admin did something since the last request. */
export const adminGetJson = <T>(url: string) => getJson<T>(url, activityHeaders());

/** The query function of the admin's GETs: the query key is the URL. */
async function adminGet<T>({ queryKey, client }: QueryFunctionContext): Promise<T> {
  try {
    return await adminGetJson<T>(String(queryKey[0]));
  } catch (error) {
    recheckSessionAfter(error, client);
    throw error;
  }
}

/** A GET of the admin API keyed by its URL; `options` add polling, freshness or placeholders. */
export function useAdminQuery<T>(url: string, options: Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn'> = {}) {
  return useQuery<T>({ ...options, queryKey: [url], queryFn: adminGet<T> });
}

/**
 * A state-changing admin request, with the CSRF token of the cached session: `body` as
 * JSON, or a file (a Blob) as it is, with the Blob's type. Resolves to the JSON answer, or
 * null when the answer has no body (204).
 */
export async function adminPost<T = { message: string }>(client: QueryClient, url: string, body?: unknown): Promise<T | null> {
  const session = client.getQueryData<AdminSession | null>([ADMIN_SESSION_URL]);
  // A write is something the admin did: it renews the session whatever came before.
  activityHeaders();
  const headers: Record<string, string> = {};
  if (session) headers['X-CSRF-Token'] = session.csrfToken;
  const file = body instanceof Blob ? body : null;
  if (body !== undefined) headers['Content-Type'] = file ? file.type : 'application/json';
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers,
    ...(body === undefined ? {} : { body: file ?? JSON.stringify(body) }),
  });
  if (!response.ok) {
    const error = new ApiError(response.status, (await response.text()) || response.statusText);
    recheckSessionAfter(error, client);
    throw error;
  }
  const text = await response.text();
  return text ? (JSON.parse(text) as T) : null;
}

/** What an admin action posts: to `url`, with a JSON `body` when it has one. */
interface AdminRequest {
  url: string;
  body?: Record<string, unknown>;
}

/**
 * An admin action (a POST): its message in a toast, then the answers whose URL `refresh`
 * accepts are fetched again; a failure in a toast too.
 */
export function useAdminPost(refresh: (queryUrl: string) => boolean) {
  return useMutation({
    mutationFn: ({ url, body }: AdminRequest, { client }) => adminPost(client, url, body),
    onSuccess: async (answer, _request, _result, { client }) => {
      toast({ title: answer?.message ?? 'Operazione eseguita.' });
      await client.invalidateQueries({ predicate: ({ queryKey }) => refresh(String(queryKey[0])) });
    },
    onError: (error) => toast({ title: 'Operazione non riuscita', description: errorMessage(error), variant: 'destructive' }),
  });
}
