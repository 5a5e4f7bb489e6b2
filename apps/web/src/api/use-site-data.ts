import type { SiteContext, SiteResponse } from '@embudo/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { onFirstInteraction } from '../lib/first-interaction';

export interface SiteData {
  /** The page data: the server's at first, then the latest fetched; null until there is any. */
  site: SiteResponse | null;
  /** No data yet and no error: the first fetch is under way (or not wanted, see `enabled`). */
  pending: boolean;
  /** The latest fetch failed after its retries (the data, if any, is the one before). */
  error: boolean;
  /** Fetch the page data again (the lead may be on another page now); never rejects. */
  refetch: () => Promise<void>;
}

const loadQuery = () => import('./site-query');

/**
 * The page data of visitor-behaviour §2.2 and §4.1 in the browser. The server's data (inlined in the page) is
 * used as it is, without a request. Fetching goes through TanStack Query (`site-query`), loaded on
 * demand: ahead of need at the visitor's first click or key, since only what the visitor does
 * (a click, a video's end) makes the page fetch its data again.
 */
export function useSiteData(context: SiteContext, initial: SiteResponse | null, enabled: boolean): SiteData {
  const [state, setState] = useState<{ site: SiteResponse | null; error: boolean }>({
    site: initial,
    error: false,
  });
  const current = useRef(state.site);
  useEffect(() => {
    current.current = state.site;
  }, [state.site]);

  const refetch = useCallback(async () => {
    try {
      const { fetchSiteQuery } = await loadQuery();
      const site = await fetchSiteQuery(context, current.current);
      current.current = site;
      setState({ site, error: false });
    } catch {
      setState((previous) => ({ site: previous.site, error: true }));
    }
  }, [context]);

  // A page the server sent without data fetches it at once.
  const fetchFirst = enabled && initial === null;
  useEffect(() => {
    if (fetchFirst) void refetch();
  }, [fetchFirst, refetch]);

  // The visitor's first click or key: fetch the query code while nothing else is loading.
  useEffect(() => {
    if (!enabled) return;
    return onFirstInteraction(() => {
      loadQuery().catch(() => undefined);
    });
  }, [enabled]);

  return { site: state.site, pending: state.site === null && !state.error, error: state.error, refetch };
}
