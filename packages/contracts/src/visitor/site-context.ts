import { z } from 'zod';

export const SiteQueryParams = z.object({
  page: z.string().optional(),
  open: z.string().optional(),
  previewToken: z.string().optional(),
  mode: z.string().optional(),
});
export type SiteQueryParams = z.infer<typeof SiteQueryParams>;

export const SiteType = z.enum(['BASE', 'CUSTOM']);
export type SiteType = z.infer<typeof SiteType>;

export const SiteContext = z.object({
  userDomain: z.string(),
  userSlug: z.string().optional(),
  userToken: z.string().optional(),
  type: SiteType,
  queryParams: SiteQueryParams.optional(),
});
export type SiteContext = z.infer<typeof SiteContext>;

export { DEV_BASE_DOMAINS, SITE_QUERY_PARAMS, parseSiteContext } from './site-context-parse';
