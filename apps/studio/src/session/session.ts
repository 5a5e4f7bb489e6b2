import { ROUTE_PATHS } from '@embudo/contracts/client';
import { roleIncludes, type Role, type StudioSession } from '@embudo/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../api/api';

export const SESSION_KEY = ['auth', 'session'] as const;

/** Who is signed in, or null (a 401). */
export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: async (): Promise<StudioSession | null> => {
    try {
      return await api(ROUTE_PATHS.auth.session, {});
    } catch (error) {
      if (isApiError(error) && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export const setupStateQuery = queryOptions({
  queryKey: ['auth', 'setup'] as const,
  queryFn: () => api(ROUTE_PATHS.auth.setupState, {}),
  staleTime: 60_000,
});

/** After sign-in, setup, a switch of account or a profile change: the new session, and fresh data. */
export function storeSession(queryClient: QueryClient, session: StudioSession | null): void {
  queryClient.setQueryData(SESSION_KEY, session);
}

/** The session of a signed-in screen (the app's layout only renders those with one). */
export function useSession(): StudioSession {
  const { data } = useQuery(sessionQuery);
  if (!data) throw new Error('useSession outside a signed-in screen');
  return data;
}

/** Whether the current role may do what `needed` may. */
export function useCan(needed: Role): boolean {
  return roleIncludes(useSession().role, needed);
}

/** Where to go back to after sign-in: a path of the Studio, never another site. */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string') return undefined;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return undefined;
  if (next.startsWith('/sign-in') || next.startsWith('/setup')) return undefined;
  return next;
}
