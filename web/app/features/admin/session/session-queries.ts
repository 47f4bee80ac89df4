import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminSession, adminLoginSchema } from '@guida/shared/schemas/admin';
import { toast } from '../../../components/ui/toast-store';
import { ApiError, apiRequest, getJson } from '../../../lib/api-client';
import { ADMIN_API, ADMIN_SESSION_URL, adminPost, errorMessage } from '../admin-api';

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

/** Signs in; the cached session then takes the login page on to the dashboard, and spares it a request. */
export function useLogin() {
  return useMutation({
    mutationFn: async (credentials: z.output<typeof adminLoginSchema>) =>
      (await (await apiRequest('POST', `${ADMIN_API}login`, credentials)).json()) as AdminSession,
    onSuccess: (signedIn, _credentials, _result, { client }) => client.setQueryData([ADMIN_SESSION_URL], signedIn),
  });
}

/**
 * Signs out and forgets every admin answer; the page guard, seeing no session, then goes
 * to the login page.
 */
export function useLogout() {
  return useMutation({
    mutationFn: (_: void, { client }) => adminPost(client, `${ADMIN_API}logout`),
    onSuccess: (_answer, _variables, _result, { client }) => {
      client.setQueryData([ADMIN_SESSION_URL], null);
      client.removeQueries({
        predicate: ({ queryKey }) => String(queryKey[0]).startsWith(ADMIN_API) && queryKey[0] !== ADMIN_SESSION_URL,
      });
    },
    onError: (error) => toast({ title: 'Uscita non riuscita', description: errorMessage(error), variant: 'destructive' }),
  });
}
