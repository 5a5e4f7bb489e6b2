import type { FunnelPageData, SiteContext } from '@embudo/contracts';
import { useEffect } from 'react';
import { withScheme } from '../lib/links';
import { useSessionValue, writeSessionValue } from '../lib/session-value';

const KEY = 'embudo:chat-redirected:';
/** This page load: the tab's flag says whether the redirect left from here or earlier. */
const THIS_LOAD = `load-${Math.random().toString(36).slice(2)}`;
const CAME_BACK = 'came-back';

/**
 * visitor-behaviour §2.2: with buttonAction LPI-REDIRECT-WPP, `open=wpp` in the address and an action url, the
 * browser goes to the chat once. The spinner shows until the browser has left, whatever else renders
 * meanwhile; coming back to the page (history back, a reload) shows the page instead of bouncing again.
 */
export function useChatRedirect(context: SiteContext, data: FunnelPageData | null): boolean {
  // A landing its owner switched off sends nobody to the chat (decision 0010).
  const url =
    data?.buttonAction === 'LPI-REDIRECT-WPP' &&
    data.isLpiOn &&
    context.queryParams?.open === 'wpp' &&
    data.action.url
      ? withScheme(data.action.url)
      : null;
  const key = `${KEY}${context.userToken ?? ''}`;
  const stored = useSessionValue(key);
  useEffect(() => {
    if (url === null || window.sessionStorage.getItem(key) !== null) return;
    // Not announced to readers: the page stays on the spinner until the browser leaves.
    writeSessionValue(key, THIS_LOAD);
    window.location.assign(url);
  }, [url, key]);
  useEffect(() => {
    // Back from the chat through the back-forward cache: the same page load, now showing the page.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted && window.sessionStorage.getItem(key) === THIS_LOAD)
        writeSessionValue(key, CAME_BACK);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [key]);
  return url !== null && (stored === null || stored === THIS_LOAD);
}
