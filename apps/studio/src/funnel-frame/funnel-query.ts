import { ROUTE_PATHS } from '@embudo/contracts/client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/api';

/** The cache keys of a funnel and what hangs off it (the funnels and leads features share them): a funnel's pages live under its key, so removing it drops them. */
export const funnelKeys = {
  all: ['funnels'] as const,
  templates: ['funnel-templates'] as const,
  one: (id: string) => ['funnels', id] as const,
  pages: (id: string) => ['funnels', id, 'pages'] as const,
  page: (id: string) => ['pages', id] as const,
};

export const funnelQuery = (id: string) =>
  queryOptions({
    queryKey: funnelKeys.one(id),
    queryFn: () => api(ROUTE_PATHS.funnels.get, { params: { id } }),
  });

export const pagesQuery = (funnelId: string) =>
  queryOptions({
    queryKey: funnelKeys.pages(funnelId),
    queryFn: () => api(ROUTE_PATHS.pages.list, { params: { id: funnelId } }),
  });
