import type { FunnelPageData, SiteContext } from '@embudo/contracts';
import { useEffect } from 'react';
import { withScheme } from '../lib/links';
import { useSessionValue } from '../lib/session-value';

const KEY = 'embudo:chat-redirected:';

/**
 * Spec §2.2: with buttonAction LPI-REDIRECT-WPP, `open=wpp` in the address and an action url, the
 * browser goes to the chat once. The spinner shows meanwhile; coming back to the page (history back)
 * shows the page instead of bouncing again.
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
  const alreadyRedirected = useSessionValue(key) !== null;
  useEffect(() => {
    if (url === null || window.sessionStorage.getItem(key) !== null) return;
    // Not announced to readers: the page stays on the spinner until the browser leaves.
    window.sessionStorage.setItem(key, '1');
    window.location.assign(url);
  }, [url, key]);
  return url !== null && !alreadyRedirected;
}
