import { useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AdminLoginAnswer,
  AdminSession,
  adminLoginSchema,
  adminSecondFactorSchema,
  adminTotpSchema,
} from '@guida/shared/schemas/admin';
import { toast } from '../../../components/ui/toast-store';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { ADMIN_API, ADMIN_SESSION_URL, SESSION_ENDED_KEY, adminGetJson, adminPost, errorMessage, markSessionEnded } from '../admin-api';

/** The signed-in admin, null when nobody is signed in; a 403 error when not an admin. */
export function useAdminSession() {
  return useQuery<AdminSession | null>({
    queryKey: [ADMIN_SESSION_URL],
    queryFn: async ({ client }) => {
      try {
        return await adminGetJson<AdminSession>(ADMIN_SESSION_URL);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          markSessionEnded(client);
          return null;
        }
        throw error;
      }
    },
    // 'always' because the data never goes stale: a logout in another tab shows on return.
    refetchOnWindowFocus: 'always',
  });
}

/** Whether the last session ended by itself (idle, expired): read once, when the login page opens. */
export const sessionEndedOf = (client: QueryClient) => client.getQueryData<boolean>(SESSION_ENDED_KEY) === true;

const post = async (path: string, body: unknown) => (await (await apiRequest('POST', `${ADMIN_API}${path}`, body)).json()) as AdminLoginAnswer;

/** Signed in: the session cached, which takes the login page on to the dashboard. */
export function enterDashboard(client: QueryClient, session: AdminSession) {
  client.setQueryData(SESSION_ENDED_KEY, false);
  client.setQueryData([ADMIN_SESSION_URL], session);
}

/** The login's first step: the password. The answer says what comes next. */
export function useLogin() {
  return useMutation({
    mutationFn: (credentials: z.output<typeof adminLoginSchema>) => post('login', credentials),
  });
}

/** The login's second step: a code of the app or a recovery code. */
export function useSecondFactor() {
  return useMutation({
    mutationFn: (answer: z.output<typeof adminSecondFactorSchema>) => post('login/second-factor', answer),
  });
}

/** The first login's enrolment, confirmed by a first code of the app. */
export function useEnrolment() {
  return useMutation({
    mutationFn: (answer: z.output<typeof adminTotpSchema>) => post('login/enrolment', answer),
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
