import { QueryClient } from '@tanstack/react-query';
import { getJson } from './api-client';

/**
 * The one QueryClient of the site, public pages and admin alike, with the spec's data
 * defaults (section 7): a query's key is its URL and its default function GETs it; no
 * refetch on an interval or on window focus, data never stale, no retries for queries or
 * mutations. A query that wants more (the live figures' interval, the admin's polling)
 * says so itself.
 */
export function createQueryClient() {
  return new QueryClient({
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
}
