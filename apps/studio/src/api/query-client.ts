import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';

/**
 * The Studio's query client. A failed call is retried once when the server was not reached or failed
 * (5xx), never when it refused (4xx). `onUnauthorized` runs on any 401: the session ended (expired,
 * signed out elsewhere, membership removed).
 */
export function createQueryClient(onUnauthorized: () => void): QueryClient {
  const on401 = (error: unknown) => {
    if (isApiError(error) && error.status === 401) onUnauthorized();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: on401 }),
    mutationCache: new MutationCache({ onError: on401 }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          count < 1 && isApiError(error) && (error.status === 0 || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
