import type { SiteContext, SiteResponse } from '@embudo/contracts';
import { hostOf } from '@embudo/contracts/runtime';
import { INVALID_DOMAINS } from '../site-context/restricted-domains';

export type View =
  | { kind: 'loading' }
  | { kind: 'legal'; page: 'terms' | 'privacy' }
  | { kind: 'notFound' }
  | { kind: 'expired' }
  | { kind: 'invalidLink' }
  | { kind: 'page' };

export interface ViewInput {
  context: SiteContext;
  site: SiteResponse | null | undefined;
  loading: boolean;
  error: boolean;
  redirecting: boolean;
}

/** The entry view, decided in exactly the order of visitor-behaviour §2.2. */
export function chooseView({ context, site, loading, error, redirecting }: ViewInput): View {
  // 1. Redirecting to the chat application, or the page configuration is loading.
  if (redirecting || loading) return { kind: 'loading' };
  // 2. A legal page by the query parameter `page`.
  const page = context.queryParams?.page;
  if (page === 'terms' || page === 'privacy') return { kind: 'legal', page };
  // 3. An empty domain; a base domain without a slug; a test or invalid domain.
  const host = hostOf(context.userDomain);
  if (
    host === '' ||
    (context.type === 'BASE' && !context.userSlug) ||
    (INVALID_DOMAINS as readonly string[]).includes(host)
  ) {
    return { kind: 'notFound' };
  }
  // 4. A load error.
  if (error || !site) return { kind: 'notFound' };
  const data = site.data;
  // 5. Expired, without the deadline exception.
  if (data?.isExpired && !data.isDeadlineExceptionOn) return { kind: 'expired' };
  // 6. Unknown token or address. A WhatsApp landing page switched off is the owner's choice, not a
  // fake link: the lead sees the not-found screen, never "it looks fake".
  if (site.message === 'DONT_EXIST_TOKEN_OR_URL') return { kind: 'invalidLink' };
  if (data?.buttonAction === 'LPI-REDIRECT-WPP' && !data.isLpiOn) return { kind: 'notFound' };
  // 7. The page.
  if (site.message === 'PAGE_FOUNDED' && data) return { kind: 'page' };
  // 8. Anything else.
  return { kind: 'notFound' };
}
