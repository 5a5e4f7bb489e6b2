import type { SiteContext, SiteQueryParams, SiteType } from './site-context';

/** The only query parameters a visitor page reads and passes on (visitor-behaviour §2.1, §5). */
export const SITE_QUERY_PARAMS = ['page', 'open', 'previewToken', 'mode'] as const;

/** The local development hosts, always part of the base-domain list. */
export const DEV_BASE_DOMAINS = ['localhost', '127.0.0.1'] as const;

/**
 * Reads the site context from a page address (visitor-behaviour §2.1). Server and browser call this same function,
 * so both always agree on slug and token.
 */
export function parseSiteContext(address: string | URL, baseDomains: readonly string[]): SiteContext {
  const url = typeof address === 'string' ? new URL(address) : address;
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => safeDecode(s));
  const host = url.hostname.toLowerCase();
  const type: SiteType = baseDomains.includes(host) ? 'BASE' : 'CUSTOM';
  const queryParams: SiteQueryParams = {};
  for (const key of SITE_QUERY_PARAMS) {
    const value = url.searchParams.get(key);
    if (value !== null) queryParams[key] = value;
  }
  const context: SiteContext = { userDomain: `${url.protocol}//${url.host}`, type };
  if (type === 'BASE') {
    if (segments[0] !== undefined) context.userSlug = segments[0];
    if (segments[1] !== undefined) context.userToken = segments[1];
  } else if (segments[0] !== undefined) {
    context.userToken = segments[0];
  }
  if (Object.keys(queryParams).length > 0) context.queryParams = queryParams;
  return context;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
