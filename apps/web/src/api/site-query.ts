import type { SiteContext, SiteResponse } from '@embudo/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from './query-client';
import { fetchSite, siteQueryKey } from './site-api';

/**
 * The browser's page-data fetches, through TanStack Query with the defaults of visitor-behaviour §9 (3 retries,
 * back-off from 1 s up to 30 s, cache kept 5 minutes). The first page arrives inlined in the
 * server's HTML, so this chunk, with the query library, loads only when the browser fetches page
 * data: after the visitor acts (a click, a video's end), or for a page the server sent without data.
 */
let client: QueryClient | null = null;

/**
 * Fetches the page data for `context` again. `current` (what the page shows) seeds the cache, so an
 * answer that did not change keeps its objects (structural sharing), as with a query's refetch.
 * Rejects once the retries are spent.
 */
export function fetchSiteQuery(context: SiteContext, current: SiteResponse | null): Promise<SiteResponse> {
  client ??= createQueryClient();
  const queryKey = siteQueryKey(context);
  if (current !== null && client.getQueryData(queryKey) === undefined) client.setQueryData(queryKey, current);
  return client.query({ queryKey, queryFn: () => fetchSite(context), staleTime: 0 });
}
