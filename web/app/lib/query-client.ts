import { QueryClient } from '@tanstack/react-query';
import { getJson } from './api-client';

/** Spec defaults: no refetch on interval or focus, data never stale, no retries. */
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
