import type { FunnelPageData, SiteContext, SiteResponse } from '@embudo/contracts';
import { RICH_TEXT_FIELDS, isAccountError } from '@embudo/contracts/runtime';
import { callRoute, VISITOR_ROUTE_PATHS } from './http-client';

/**
 * The page configuration for a site context: the lead's page, or a preview's (visitor-behaviour §7 "Site" and
 * "Preview"). An account error becomes the error 'Error al mostrar la página' (visitor-behaviour §4.1, §8).
 */
export async function fetchSite(context: SiteContext): Promise<SiteResponse> {
  const previewToken = context.queryParams?.previewToken;
  const answer = previewToken
    ? await callRoute(VISITOR_ROUTE_PATHS.site.preview, {
        body: { domain: context.userDomain, token: previewToken },
      })
    : await callRoute(VISITOR_ROUTE_PATHS.site.resolve, {
        body: {
          domain: context.userDomain,
          slug: context.userSlug ?? null,
          token: context.userToken ?? '',
          type: context.type,
          origin: 'SITE-REQUEST',
          userAgent: navigator.userAgent.slice(0, 500),
        },
      });
  if (isAccountError(answer.message)) throw new Error('Error al mostrar la página');
  return answer.data ? { ...answer, data: await sanitisePageData(answer.data) } : answer;
}

/**
 * Rich text fetched by the browser passes the browser's sanitiser before display (architecture §5.8). The
 * first page arrives rendered and sanitised by the server; only later fetches load this code.
 */
async function sanitisePageData(data: FunnelPageData): Promise<FunnelPageData> {
  const { sanitiseRichText } = await import('./browser-sanitiser');
  const clean = { ...data };
  for (const field of RICH_TEXT_FIELDS) clean[field] = sanitiseRichText(data[field]);
  return clean;
}

export const siteQueryKey = (context: SiteContext) =>
  [
    'site',
    context.userDomain,
    context.userSlug ?? '',
    context.userToken ?? '',
    context.queryParams?.previewToken ?? '',
  ] as const;
