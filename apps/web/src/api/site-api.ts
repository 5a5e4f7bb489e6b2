import type { SiteContext, SiteResponse } from '@embudo/contracts';
import { request } from './http-client';

/** The messages that mean the owner's account cannot show pages (spec §4.1). */
const ACCOUNT_ERRORS = new Set(['INACTIVE_SUBSCRIPTION', 'CANT_GET_USER']);

/**
 * The page configuration for a site context: the lead's page, or a preview's (spec §7 "Site" and
 * "Preview"). An account error becomes the error 'Error al mostrar la página' (spec §4.1, §8).
 */
export async function fetchSite(context: SiteContext): Promise<SiteResponse> {
  const previewToken = context.queryParams?.previewToken;
  const answer = previewToken
    ? await request<SiteResponse>('POST', '/funnel/site/preview', {
        domain: context.userDomain,
        token: previewToken,
      })
    : await request<SiteResponse>('POST', '/api/funnel/site', {
        domain: context.userDomain,
        slug: context.userSlug ?? null,
        token: context.userToken ?? '',
        type: context.type,
        origin: 'SITE-REQUEST',
        userAgent: navigator.userAgent.slice(0, 500),
      });
  if (ACCOUNT_ERRORS.has(answer.message)) throw new Error('Error al mostrar la página');
  return answer;
}

export const siteQueryKey = (context: SiteContext) =>
  [
    'site',
    context.userDomain,
    context.userSlug ?? '',
    context.userToken ?? '',
    context.queryParams?.previewToken ?? '',
  ] as const;
