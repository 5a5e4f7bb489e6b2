import { QueryClient } from '@tanstack/react-query';

/**
 * Data fetching defaults of visitor-behaviour §9: 3 retries with exponential back-off from 1 s up to 30 s, cache
 * kept 5 minutes, no refetch on window focus or reconnect.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: 3,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
        gcTime: 5 * 60 * 1000,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    },
  });
}
