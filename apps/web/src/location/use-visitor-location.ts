import { useQuery } from '@tanstack/react-query';
import type { LocationDeps, LocationRecord } from './location';

export const VISITOR_LOCATION_QUERY_KEY = ['visitor-location'] as const;

export interface VisitorLocationState {
  /** The visitor's record (the unknown-valued fallback when the lookup failed); null until known. */
  location: LocationRecord | null;
  /** The lookup has finished, or is not wanted (`enabled` false): loading may go on. */
  done: boolean;
}

/** localStorage, or null where reading it throws (storage blocked). */
function browserStorage(): LocationDeps['storage'] {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The lookup's collaborators in the browser. */
export function browserLocationDeps(): LocationDeps {
  return {
    fetch: (input, init) => window.fetch(input, init),
    storage: browserStorage(),
    now: () => Date.now(),
    warn: (message, error) => {
      console.warn(message, error);
    },
  };
}

/**
 * The visitor's location (spec §4.2), looked up once per page in the browser. Disabled during server
 * rendering, so the server and the hydrating browser both render `{ location: null, done: false }`
 * first. No retries: a failed lookup already answers the fallback.
 */
export function useVisitorLocation(enabled: boolean): VisitorLocationState {
  const query = useQuery({
    queryKey: VISITOR_LOCATION_QUERY_KEY,
    // Loaded after the first paint: the lookup's code is not in the page's first bundle.
    queryFn: () => import('./location').then(({ lookupLocation }) => lookupLocation(browserLocationDeps())),
    enabled: enabled && typeof window !== 'undefined',
    retry: false,
    staleTime: Infinity,
  });
  return {
    location: query.data?.record ?? null,
    done: !enabled || query.isSuccess || query.isError,
  };
}
