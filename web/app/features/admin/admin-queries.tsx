import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getJson } from '../../lib/api-client';

let client: QueryClient | null = null;

/**
 * One client for the life of the page, so the login and the dashboard share what they read
 * (the session). Spec defaults: no refetch on interval or focus, data never stale, no
 * retries. Only the admin area uses React Query: the public pages stay without it.
 */
function adminQueryClient() {
  client ??= new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: ({ queryKey }) => getJson(String(queryKey[0])),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export function AdminQueries({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={adminQueryClient()}>{children}</QueryClientProvider>;
}
